import { requireSuccess } from '../../harness/http/broken.js';
import { because, expect, req, test } from '../../harness/areas/accounts.js';

// frequencyPerDay (reads without the PSU present) and the token of account reads: its scope, and
// the PSU's token where the profile claims it.

test(
  'reads without the PSU present beyond frequencyPerDay are ACCESS_EXCEEDED',
  req('accounts.frequency.access-exceeded'),
  async ({ accounts, consents, consent }) => {
    const frequency =
      (await consents.read(consent.consentId)).json<{ frequencyPerDay?: number }>().frequencyPerDay ?? 1;
    const id = consent.accounts[0].resourceId;
    // The reads within frequencyPerDay are served (balances' own requirement judges a read): one
    // that is not blocks the check, which judges the read after them.
    for (let i = 1; i <= frequency; i++)
      requireSuccess(
        await accounts.balances(consent.consentId, id, { psuPresent: false }),
        'accounts.balances.shape',
        `read ${i} of ${frequency} without the PSU present`,
      );
    await expect(await accounts.balances(consent.consentId, id, { psuPresent: false })).toBeTppError(
      429,
      'ACCESS_EXCEEDED',
    );
  },
);

test(
  'reads with the PSU present are not counted against frequencyPerDay',
  req('accounts.frequency.psu-present'),
  async ({ accounts, consents, consent }) => {
    const frequency =
      (await consents.read(consent.consentId)).json<{ frequencyPerDay?: number }>().frequencyPerDay ?? 1;
    const id = consent.accounts[0].resourceId;
    for (let i = 0; i <= frequency; i++)
      requireSuccess(
        await accounts.balances(consent.consentId, id),
        'accounts.balances.shape',
        `read ${i + 1} of ${frequency + 1} with the PSU present`,
      );
    const res = await accounts.balances(consent.consentId, id, { psuPresent: false });
    expect(
      res,
      because(
        `after ${frequency + 1} reads with PSU-IP-Address, a first read without it is still within frequencyPerDay ${frequency}; got ${res.describe()}`,
      ),
    ).toSucceed();
  },
);

test(
  'an account read with a paymentinitiation token is refused',
  req('accounts.scope.payment-token'),
  async ({ accounts, consent }) => {
    const res = await accounts.balances(consent.consentId, consent.accounts[0].resourceId, {
      scope: 'paymentinitiation',
    });
    await expect(res).toHaveStatus([401, 403]);
  },
);

test(
  "where the PSU's token is claimed for reads, a read with the application token is refused",
  req('accounts.token.psu-required'),
  async ({ accounts, consent }) => {
    // The feature tokens.psu-reads claims the check; the option tokens.accountReads psu makes the reads it needs.
    test.skip(!accounts.psuTokenReads, 'the profile claims tokens.psu-reads without tokens.accountReads psu');
    // An explicit scope sends the application token (client credentials) instead of the PSU's.
    const res = await accounts.list(consent.consentId, { scope: 'accountinformation' });
    await expect(res, "a read with the application token where the PSU's token is claimed").toBeRefused();
  },
);
