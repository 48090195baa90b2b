import { refusalTests, test } from '../../harness/operations.js';

// X-Request-ID (Common request headers): "required on every operation", a uuid; judged on every claimed operation.

for (const t of refusalTests({
  requirement: 'headers.x-request-id.required',
  title: 'called without X-Request-ID is refused and changes nothing',
  cases: () => [{ what: 'no X-Request-ID', call: { headers: { 'X-Request-ID': null } } }],
}))
  test(t.title, t.details, t.body);

for (const t of refusalTests({
  requirement: 'headers.x-request-id.uuid',
  title: 'called with an X-Request-ID that is not a uuid is refused and changes nothing',
  cases: () =>
    // Never the hyphen-less or braced form: a lenient reader takes it for the same uuid.
    ['not-a-uuid', '6f1e0f1c-0d2e-4c0b-9d1e-6f1e0f1c0d2g'].map((v) => ({
      what: `X-Request-ID "${v}"`,
      call: { headers: { 'X-Request-ID': v } },
    })),
}))
  test(t.title, t.details, t.body);
