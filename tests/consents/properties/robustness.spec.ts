import { composeIBAN } from 'ibantools';
import { aisConsent } from '../../../harness/areas/accounts.js';
import { test } from '../../../harness/properties/headers.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';
import type { Json } from '../../../harness/values/json.js';

// Generated robustness: any input outside what the specification defines, sent to create consent
// (a consent dedicated to account references, each string of it tried first with each near miss
// and each class of text: a malformed currency or IBAN in a nested reference among them; null,
// other types, unknown properties, duplicate and oversized reference lists; malformed JSON and
// other content types; header values outside their forms) and to read, status and delete consent
// (malformed and unknown ids), and to update PSU data of its authorisation (a psuData body, each
// class of text tried first in it): never a 5xx; a refusal carries the error shape and no consentId, a
// refused delete leaves the consent as it was; an acceptance answers its schema.
const IBAN = composeIBAN({ countryCode: 'SE', bban: '50000000058398257466' })!;

test(
  'generated robustness: any input to create, read, status and delete consent is refused with the error shape or taken, never a 5xx',
  req('consents.robustness.any-input'),
  async ({ operations, target, depth, exchanges }) => {
    const sample = aisConsent({
      access: {
        balances: [{ iban: IBAN, currency: 'EUR' }],
        transactions: [{ iban: IBAN, currency: 'EUR' }, { maskedPan: '123456xxxxxx1234' }],
      },
    }) as unknown as Json;
    const subjects = claimedSubjects(target.profile, [
      { operation: 'consents.create', sample, fixed: true, sweep: true, whole: true, headers: true },
      { operation: 'consents.read', id: true },
      { operation: 'consents.status', id: true },
      { operation: 'consents.authorisations.list', id: true },
      { operation: 'consents.delete', id: true },
      // Update PSU data with a psuData body (no method) on a received authorisation: taken, it is
      // the decoupled answer (section F); refused, the scaStatus is as it was. Each class of text
      // is tried first in its password.
      {
        operation: 'consents.authorisations.update',
        sample: { psuData: { password: 'sandbox' } },
        fixed: true,
        texts: ['psuData.password'],
        whole: true,
        response: 'authorisations/update-psu-data-decoupled',
      },
    ] satisfies Subject[]);
    await runProperty({
      name: 'any input to create, read, status and delete consent is refused with the error shape or taken, never a 5xx',
      requirement: 'consents.robustness.any-input',
      ...robustProperty(operations, target.profile, subjects, depth.cases),
      exchanges,
      depth,
    });
  },
);
