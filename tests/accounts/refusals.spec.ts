import { because, expect, req, test } from '../../harness/areas/accounts.js';
import { AccountsClient } from '../../harness/areas/accounts.js';

test(
  'an account read with a PSU-IP-Address that is no IP address is refused',
  req('accounts.read.psu-ip-address-format'),
  async ({ accounts, consent }) => {
    // No IPv6 address: the header is typed for what the TPP sends, and a bank may take an IPv6 one.
    for (const ip of ['not-an-ip-address', '192.0.2.300']) {
      const res = await accounts.list(consent.consentId, { headers: { 'PSU-IP-Address': ip } });
      await expect(res, because(`List accounts with PSU-IP-Address "${ip}"`)).toBeRefused();
    }
  },
);

test(
  'a transaction list whose dateFrom is not an ISO date is refused',
  req('accounts.transactions.date-from-format'),
  async ({ accounts, consent }) => {
    const account = consent.accounts[0];
    expect(account, because('the consent lists at least one account')).toBeTruthy();
    for (const dateFrom of ['2026-13-45', 'yesterday', '01/02/2026']) {
      const res = await accounts.transactions(consent.consentId, account.resourceId, {
        bookingStatus: 'both',
        dateFrom,
      });
      await expect(res, because(`Transaction list with dateFrom=${dateFrom}`)).toBeRefused();
    }
  },
);

test(
  "account reads under another TPP's consent are refused",
  req('accounts.ownership.other-tpp'),
  async ({ accounts, consent, secondTpp }) => {
    const api = secondTpp(accounts.api);
    const other = new AccountsClient(api);
    const account = consent.accounts[0];
    expect(account, because('the consent lists at least one account')).toBeTruthy();
    for (const [what, res] of [
      ['List accounts', await other.list(consent.consentId)],
      ['Account detail', await other.detail(consent.consentId, account.resourceId)],
      ['Balances', await other.balances(consent.consentId, account.resourceId)],
    ] as const) {
      await expect(res, because(`${what} by another TPP with the first TPP's Consent-ID`)).toBeRefused();
    }
  },
);

test(
  "account reads under another TPP's consent answer 403 or 404 CONSENT_UNKNOWN",
  req('accounts.ownership.other-tpp-code'),
  async ({ accounts, consent, secondTpp }) => {
    const api = secondTpp(accounts.api);
    const res = await new AccountsClient(api).list(consent.consentId);
    await expect(res, because("List accounts by another TPP with the first TPP's Consent-ID")).toBeTppError(
      [403, 404],
      'CONSENT_UNKNOWN',
    );
  },
);
