import { refusalTests, test } from '../../harness/operations.js';

// Authentication 1: "Every call carries `Authorization: Bearer <ACCESS_TOKEN>`"; judged on every claimed operation.

for (const t of refusalTests({
  requirement: 'headers.authorization.required',
  title: 'called without Authorization is refused and changes nothing',
  cases: () => [{ what: 'no Authorization', call: { noAuth: true } }],
}))
  test(t.title, t.details, t.body);

for (const t of refusalTests({
  requirement: 'headers.authorization.invalid-token',
  title: 'called with a bearer token the server never issued is refused and changes nothing',
  cases: () => [
    {
      what: 'a bearer token never issued',
      call: { noAuth: true, headers: { Authorization: 'Bearer obg-conformance-never-issued-token-0000' } },
    },
  ],
}))
  test(t.title, t.details, t.body);
