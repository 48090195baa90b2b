import { refusalTests, test } from '../../harness/operations.js';

// TPP-Redirect-URI (Common request headers): "mandated when TPP-Redirect-Preferred is true", on
// every claimed operation that accepts the redirect headers (create consent, initiate payment,
// create signing basket and the start-authorisation operations).

const REDIRECT_WITHOUT_URI = { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': null };

for (const [requirement, status, title] of [
  ['headers.tpp-redirect-uri.when-preferred', undefined, 'is refused and changes nothing'],
  ['headers.tpp-redirect-uri.when-preferred-code', 400, 'is answered 400'],
] as const)
  for (const t of refusalTests({
    requirement,
    status,
    title: `that accepts the redirect headers, called with TPP-Redirect-Preferred true and no TPP-Redirect-URI, ${title}`,
    applies: (o) => o.accepts.includes('redirect'),
    cases: () => [
      { what: 'TPP-Redirect-Preferred true, no TPP-Redirect-URI', call: { headers: REDIRECT_WITHOUT_URI } },
    ],
  }))
    test(t.title, t.details, t.body);
