import type { PrepKit, Prepared } from '../types.js';
import { AUTH_START, AUTH_UPDATE, BIC, op, READ } from './common.js';

// E. Signing baskets

const section = 'E. Signing baskets';

/** The test's basket (of one payment to sign), read. */
const onBasket = async (k: PrepKit): Promise<Prepared> => ({ path: k.fill({ basketId: await k.w.basket() }) });

export const SIGNING_BASKETS = [
  op({
    id: 'signing-baskets.create',
    name: 'Create basket',
    section,
    group: 'signing-baskets',
    method: 'POST',
    template: '{signingBaskets}',
    features: ['signing-baskets'],
    requires: [...BIC, 'PSU-IP-Address'],
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation'],
    request: 'signing-baskets/basket-request',
    response: 'signing-baskets/basket-created',
    control: 'signing-baskets.create.response',
    prepare: async ({ fill, psu, w }) => ({
      path: fill({}),
      base: psu,
      json: { paymentIds: await w.basketPayments() },
      created: (b) => {
        if (typeof b.basketId === 'string') w.c.baskets.created.push(b.basketId);
      },
    }),
  }),
  op({
    id: 'signing-baskets.read',
    name: 'Read basket',
    section,
    group: 'signing-baskets',
    method: 'GET',
    template: '{signingBaskets}/{basketId}',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
    response: 'signing-baskets/basket',
    control: 'signing-baskets.read.response',
    prepare: onBasket,
  }),
  op({
    id: 'signing-baskets.status',
    name: 'Basket status',
    section,
    group: 'signing-baskets',
    method: 'GET',
    template: '{signingBaskets}/{basketId}/status',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
    response: 'signing-baskets/basket-status',
    control: 'signing-baskets.status.response',
    prepare: onBasket,
  }),
  op({
    id: 'signing-baskets.authorisations.start',
    name: 'Start authorisation (basket)',
    section,
    group: 'signing-baskets',
    method: 'POST',
    template: '{signingBaskets}/{basketId}/authorisations',
    features: ['signing-baskets', 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
    control: 'signing-baskets.authorisation.start',
    // A basket offers no list of its authorisations: only the refused answer (no authorisationId) shows.
    prepare: async (k) => k.startOn(k.fill({ basketId: await k.w.basket() })),
  }),
  op({
    id: 'signing-baskets.authorisations.status',
    name: 'Authorisation SCA status (basket)',
    section,
    group: 'signing-baskets',
    method: 'GET',
    // Section F 3 ("SCA status: GET <resourceBasePath>/authorisations/<authorisationId>", for consent, payment or basket).
    template: '{signingBaskets}/{basketId}/authorisations/{authorisationId}',
    features: ['signing-baskets', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
    control: 'signing-baskets.authorisation.sca-status',
    prepare: async (k) => k.onAuthorisation(await k.w.basketAuthorisation()),
  }),
  op({
    id: 'signing-baskets.authorisations.update',
    name: 'Update PSU data (basket)',
    section,
    group: 'signing-baskets',
    method: 'PUT',
    template: '{signingBaskets}/{basketId}/authorisations/{authorisationId}',
    features: ['signing-baskets', 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/start-request',
    response: 'authorisations/authorisation-started',
    control: 'signing-baskets.authorisation.update-psu-data',
    prepare: async (k) => k.onAuthorisation(await k.w.basketAuthorisation()),
  }),
  op({
    id: 'signing-baskets.delete',
    name: 'Delete basket',
    section,
    group: 'signing-baskets',
    method: 'DELETE',
    template: '{signingBaskets}/{basketId}',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
    control: 'signing-baskets.delete.before-authorisation',
    prepare: async (k) => {
      const id = await k.w.basket('basket-to-delete');
      return { path: k.fill({ basketId: id }), state: async () => `${(await k.w.c.baskets.read(id)).status}` };
    },
  }),
];
