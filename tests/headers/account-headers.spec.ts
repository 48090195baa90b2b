import { refusalTests, test } from '../../harness/operations.js';

// Consent-ID (Common request headers; section C: "All GET. `Consent-ID` is required."), on all five account reads.

for (const t of refusalTests({
  requirement: 'headers.consent-id.account-reads',
  title: 'read without Consent-ID is refused',
  applies: (o) => o.group === 'accounts',
  cases: () => [{ what: 'no Consent-ID', call: { headers: { 'Consent-ID': null } } }],
}))
  test(t.title, t.details, t.body);
