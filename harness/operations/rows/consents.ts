import type { PrepKit, Prepared } from '../types.js';
import { AUTH_START, AUTH_UPDATE, BIC, op, READ } from './common.js';

// B. Consents

const section = 'B. Consents';

/** The test's consent (one-off, not authorised), read. */
const onConsent = async (k: PrepKit): Promise<Prepared> => ({ path: k.fill({ consentId: await k.w.consent() }) });

export const CONSENTS = [
  op({
    id: 'consents.create',
    name: 'Create consent',
    section,
    group: 'consents',
    method: 'POST',
    template: '{consents}',
    features: ['consents'],
    requires: BIC,
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation'],
    request: 'consents/consent-request',
    response: 'consents/consent-created',
    control: 'consents.create.response',
    prepare: async ({ fill, w }) => ({
      path: fill({}),
      base: w.c.consents.psuHeaders(),
      json: w.oneOffConsent(),
      created: (b) => {
        if (typeof b.consentId === 'string') w.c.consents.created.push(b.consentId);
      },
    }),
  }),
  op({
    id: 'consents.read',
    name: 'Read consent',
    section,
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
    response: 'consents/consent',
    control: 'consents.read.fields',
    prepare: onConsent,
  }),
  op({
    id: 'consents.status',
    name: 'Consent status',
    section,
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/status',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
    response: 'consents/consent-status',
    control: 'consents.status.response',
    prepare: onConsent,
  }),
  op({
    id: 'consents.authorisations.start',
    name: 'Start authorisation (consent)',
    section,
    group: 'consents',
    method: 'POST',
    template: '{consents}/{consentId}/authorisations',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
    control: 'authorisations.create.response',
    prepare: async (k) => k.startOn(k.fill({ consentId: await k.w.consent() }), 'authorisationIds'),
  }),
  op({
    id: 'consents.authorisations.list',
    name: 'List authorisations (consent)',
    section,
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/authorisations',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/authorisation-list',
    control: 'authorisations.list.contains',
    prepare: onConsent,
  }),
  op({
    id: 'consents.authorisations.status',
    name: 'Authorisation SCA status (consent)',
    section,
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/authorisations/{authorisationId}',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
    control: 'authorisations.status.ends',
    prepare: async (k) => k.onAuthorisation(await k.w.consentAuthorisation()),
  }),
  op({
    id: 'consents.authorisations.update',
    name: 'Update PSU data (consent)',
    section,
    group: 'consents',
    method: 'PUT',
    template: '{consents}/{consentId}/authorisations/{authorisationId}',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/start-request',
    response: 'authorisations/authorisation-started',
    control: 'authorisations.update-psu-data.decoupled',
    prepare: async (k) => k.onAuthorisation(await k.w.consentAuthorisation()),
  }),
  op({
    id: 'consents.delete',
    name: 'Delete consent',
    section,
    group: 'consents',
    method: 'DELETE',
    template: '{consents}/{consentId}',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
    control: 'consents.delete.terminated',
    prepare: async (k) => {
      const id = await k.w.consent('consent-to-delete');
      return {
        path: k.fill({ consentId: id }),
        state: () => k.statusOf(`${k.w.c.consents.basePath(id)}/status`, 'consentStatus'),
      };
    },
  }),
];
