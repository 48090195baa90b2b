import { expect, req, test } from '../../harness/areas/accounts.js';

// Consent-ID on account-information reads (Common request headers), shown on the account reads.

test(
  'account-information reads without Consent-ID are refused',
  req('headers.consent-id.account-reads'),
  async ({ accounts, consent }) => {
    const id = consent.accounts[0].resourceId;
    for (const res of [
      await accounts.list(null),
      await accounts.balances(null, id),
      await accounts.transactions(null, id, { bookingStatus: 'booked', dateFrom: '2000-01-01' }),
    ]) {
      await expect(res, 'a read without Consent-ID').toBeRefused();
    }
  },
);
