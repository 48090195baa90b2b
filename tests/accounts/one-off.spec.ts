import {
  aisConsent,
  expect,
  req,
  test,
  type AccountsClient,
  type ConsentsClient,
} from '../../harness/areas/accounts.js';

// One-off consents (recurringIndicator false, frequencyPerDay 1) are for one access: the first read
// is served, a second read of the same resource is not, however the bank counts "one access"
// (once per consent, or once per read endpoint and account).

/** An authorised one-off consent whose first List accounts was served (any 2xx): its one access spent. */
async function readOnce(accounts: AccountsClient, consents: ConsentsClient): Promise<string> {
  const consentId = await accounts.authorised(consents, aisConsent());
  await expect(await accounts.list(consentId), 'the first read under an authorised one-off consent').toSucceed();
  return consentId;
}

test(
  'a second List accounts under a one-off consent is refused',
  req('accounts.one-off.second-read'),
  async ({ accounts, consents }) => {
    const consentId = await readOnce(accounts, consents);
    await expect(await accounts.list(consentId), 'a second List accounts under a one-off consent').toBeRefused();
  },
);

test(
  'a second read of the same resource under a one-off consent is 429 ACCESS_EXCEEDED or 401 CONSENT_EXPIRED',
  req('accounts.one-off.second-read-code'),
  async ({ accounts, consents }) => {
    const consentId = await readOnce(accounts, consents);
    const second = await accounts.list(consentId);
    // Counted per endpoint and account, the access is exceeded; counted per consent, the consent has ended.
    if (second.status === 429) await expect(second).toBeTppError(429, 'ACCESS_EXCEEDED');
    else await expect(second).toBeTppError(401, 'CONSENT_EXPIRED');
  },
);
