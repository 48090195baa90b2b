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
    ['not-a-uuid', '6f1e0f1c0d2e4c0b9d1e6f1e0f1c0d2e'].map((v) => ({
      what: `X-Request-ID "${v}"`,
      call: { headers: { 'X-Request-ID': v } },
    })),
}))
  test(t.title, t.details, t.body);
