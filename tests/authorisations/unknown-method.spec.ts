import { refusalTests, test } from '../../harness/operations.js';

// An authenticationMethodId not among scaMethods (States > Authorisation: received → started only
// "the id is one of the listed methods"), on every claimed operation that starts an authorisation
// with a method: update PSU data of consents, payments, cancellations and baskets. The
// authorisation's scaStatus is read before and after: it stays as it was (received).

const UNKNOWN = { authenticationMethodId: 'no-such-method' };

for (const [requirement, status, code, title] of [
  ['authorisations.start.unknown-method', undefined, undefined, 'is refused and the status stays received'],
  [
    'authorisations.start.unknown-method-code',
    400,
    ['SCA_METHOD_UNKNOWN', 'FORMAT_ERROR'],
    'is answered 400 SCA_METHOD_UNKNOWN or FORMAT_ERROR',
  ],
] as const)
  for (const t of refusalTests({
    requirement,
    status,
    code: code ? [...code] : undefined,
    title: `that starts an authorisation, with an authenticationMethodId not among scaMethods, ${title}`,
    applies: (o) => o.method === 'PUT' && o.request === 'authorisations/start-request',
    cases: () => [{ what: 'authenticationMethodId "no-such-method"', call: { json: UNKNOWN } }],
  }))
    test(t.title, t.details, t.body);
