import { randomUUID } from 'node:crypto';
import { requireSuccess } from '../../harness/http/broken.js';
import { notJudged } from '../../harness/test.js';
import { NOT_JUDGED_ANNOTATION } from '../../harness/catalogue/req.js';
import {
  aisConsent,
  because,
  expect,
  recurringConsent,
  req,
  test,
  type AccountsClient,
} from '../../harness/areas/accounts.js';

// The consent behind a read: Consent-ID required, known, and valid.

async function refusedEverywhere(
  accounts: AccountsClient,
  consentId: string,
  accountId: string | undefined,
  what: string,
) {
  const reads = [await accounts.list(consentId)];
  if (accountId)
    reads.push(
      await accounts.balances(consentId, accountId),
      await accounts.transactions(consentId, accountId, { bookingStatus: 'both', dateFrom: '2000-01-01' }),
    );
  for (const res of reads) await expect(res, what).toBeRefused();
  return reads;
}

/** PSU-ID of a PSU kept for one recurring-consent check, so its expiry ends no other test's consent. */
const isolatedPsu = (accounts: AccountsClient, i: number): Record<string, string> => {
  const id = accounts.api.target.profile.accounts?.isolatedPsuIds?.[i];
  return id ? { 'PSU-ID': id } : {};
};

test.describe('Consent-ID', () => {
  test(
    'a read without Consent-ID is a FORMAT_ERROR',
    req('accounts.consent.missing-code'),
    async ({ accounts, consent }) => {
      // The TPP holds a valid consent, so a target that falls back to one when Consent-ID is missing shows it.
      expect(consent.accounts.length, because('the consent of the test lists accounts')).toBeGreaterThan(0);
      await expect(await accounts.list(null)).toBeTppError(400, 'FORMAT_ERROR');
    },
  );

  test(
    'a read with a Consent-ID the server never issued is refused',
    req('accounts.consent.unknown'),
    async ({ accounts }) => {
      await expect(await accounts.list(randomUUID()), 'an unknown Consent-ID').toBeRefused();
    },
  );

  test(
    'every account read, the transaction detail included, with a Consent-ID the server never issued is refused',
    req('accounts.consent.unknown'),
    async ({ accounts, consent }) => {
      // The reads of an account the test's own consent shows, each made with an unknown Consent-ID.
      // A read is judged where the same read with the test's consent was accepted: a route that
      // fails for a valid consent refuses every call, and proves nothing here (its own rule judges it).
      const account = consent.accounts[0];
      expect(account, because('the consent of the test lists an account')).toBeDefined();
      const query = { bookingStatus: 'both', dateFrom: '2000-01-01' };
      const valid = await accounts.transactions(consent.consentId, account.resourceId, query);
      const listed = (valid.status >= 200 && valid.status < 300 ? valid.body : undefined) as
        | { transactions?: { booked?: { transactionId?: string }[]; pending?: { transactionId?: string }[] } }
        | undefined;
      const entry = [...(listed?.transactions?.booked ?? []), ...(listed?.transactions?.pending ?? [])].find(
        (t) => t.transactionId,
      );
      const unknown = randomUUID();
      const candidates: [string, () => ReturnType<AccountsClient['list']>, () => ReturnType<AccountsClient['list']>][] =
        [
          [
            'account detail',
            () => accounts.detail(consent.consentId, account.resourceId),
            () => accounts.detail(unknown, account.resourceId),
          ],
          [
            'balances',
            () => accounts.balances(consent.consentId, account.resourceId),
            () => accounts.balances(unknown, account.resourceId),
          ],
          ['transactions', async () => valid, () => accounts.transactions(unknown, account.resourceId, query)],
          ...(entry
            ? ([
                [
                  'transaction detail',
                  () => accounts.transaction(consent.consentId, account.resourceId, entry.transactionId!),
                  () => accounts.transaction(unknown, account.resourceId, entry.transactionId!),
                ],
              ] as typeof candidates)
            : []),
        ];
      if (!entry)
        test.info().annotations.push({
          type: NOT_JUDGED_ANNOTATION,
          description: 'transaction detail: the account lists no entry with a transactionId',
        });
      const reads: [string, Awaited<ReturnType<AccountsClient['list']>>][] = [];
      for (const [what, withConsent, withUnknown] of candidates) {
        const ok = await withConsent();
        if (ok.status >= 200 && ok.status < 300) reads.push([what, await withUnknown()]);
        else
          test.info().annotations.push({
            type: NOT_JUDGED_ANNOTATION,
            description: `${what}: the same read with the test's consent was not accepted (${ok.describe()})`,
          });
      }
      if (!reads.length) notJudged("no account read was accepted with the test's own consent");
      for (const [what, res] of reads)
        await expect.soft(res, because(`${what} with an unknown Consent-ID`)).toBeRefused();
    },
  );

  test(
    'an unknown Consent-ID is answered CONSENT_UNKNOWN',
    req('accounts.consent.unknown-code'),
    async ({ accounts }) => {
      await expect(await accounts.list(randomUUID())).toBeTppError([403, 400], 'CONSENT_UNKNOWN');
    },
  );
});

test.describe('consents that are not valid', () => {
  test(
    'a consent not yet authorised gives no access',
    req('accounts.consent.received'),
    async ({ accounts, consents }) => {
      const created = requireSuccess(
        await consents.create({ body: aisConsent() }),
        'consents.create.response',
        'create consent',
      );
      await refusedEverywhere(
        accounts,
        created.json<{ consentId: string }>().consentId,
        undefined,
        'consent received, not authorised',
      );
    },
  );

  test(
    'a consent whose SCA failed gives no access',
    req('accounts.consent.rejected'),
    async ({ accounts, consents, failingPsu: failing }) => {
      const { consentId, sca } = await consents.createAuthorised({
        body: aisConsent(),
        headers: { 'PSU-ID': failing },
      });
      expect(sca.scaStatus, because('the SCA of the failing PSU must fail')).toBe('failed');
      await refusedEverywhere(accounts, consentId, undefined, 'consent whose SCA failed (rejected)');
    },
  );

  test(
    'a deleted consent gives no access, not even to an account seen before',
    req('accounts.consent.terminated'),
    async ({ accounts, consents, consent }) => {
      await expect(await consents.delete(consent.consentId)).toSucceed();
      await refusedEverywhere(
        accounts,
        consent.consentId,
        consent.accounts[0].resourceId,
        'consent deleted (terminatedByTpp)',
      );
    },
  );

  test(
    'a recurring consent ended by a newer recurring consent of the PSU gives no access',
    req('accounts.consent.expired'),
    async ({ accounts, consents }) => {
      const headers = isolatedPsu(accounts, 0);
      // Authorised, or the test stops: the former consent is read before and after the newer one.
      const former = await accounts.authorised(consents, recurringConsent(), headers);
      const accountId = (await accounts.accountsOf(former))[0]?.resourceId;
      await accounts.authorised(consents, recurringConsent(), headers);
      await refusedEverywhere(accounts, former, accountId, 'former recurring consent, expired by a newer one');
    },
  );

  test(
    'reads under a received, rejected or deleted consent are CONSENT_INVALID',
    req('accounts.consent.invalid-code'),
    async ({ accounts, consents, consent }) => {
      const received = (await consents.create({ body: aisConsent() })).json<{ consentId: string }>().consentId;
      await expect(await accounts.list(received)).toBeTppError(401, 'CONSENT_INVALID');
      const failing = consents.api.target.profile.sca?.failingPsuId;
      if (failing) {
        const rejected = await consents.createAuthorised({ body: aisConsent(), headers: { 'PSU-ID': failing } });
        await expect(await accounts.list(rejected.consentId)).toBeTppError(401, 'CONSENT_INVALID');
      }
      await consents.delete(consent.consentId);
      await expect(await accounts.list(consent.consentId)).toBeTppError(401, 'CONSENT_INVALID');
    },
  );

  test(
    'reads under an expired consent are CONSENT_EXPIRED',
    req('accounts.consent.expired-code'),
    async ({ accounts, consents }) => {
      const headers = isolatedPsu(accounts, 1);
      const former = await accounts.authorised(consents, recurringConsent(), headers);
      await accounts.authorised(consents, recurringConsent(), headers);
      await expect(await accounts.list(former)).toBeTppError(401, 'CONSENT_EXPIRED');
    },
  );
});
