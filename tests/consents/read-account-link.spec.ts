import { because, expect, req, test } from '../../harness/areas/accounts.js';
import { requireSuccess } from '../../harness/http/broken.js';
import { notJudged } from '../../harness/test.js';

// The read consent's _links.account followed, as the transaction list's is
// (accounts.transactions.account-link): it leads to the consent's accounts.

test(
  "the read consent's _links.account leads to the accounts the consent covers",
  req('consents.read.account-link'),
  async ({ accounts, consents, consent }) => {
    const read = requireSuccess(
      await consents.read(consent.consentId),
      'consents.read.fields',
      'read the authorised consent',
    );
    const href = read.json<{ _links?: { account?: { href?: unknown } } }>()._links?.account?.href;
    if (typeof href !== 'string' || href === '')
      notJudged('the read consent gives no _links.account (its presence is consents.read.complete)');
    const res = await accounts.read(consent.consentId, href);
    await expect(res, because(`follow _links.account (${href}) with the consent's Consent-ID`)).toSucceed();
    const body = res.json<{ accounts?: { resourceId?: string }[]; account?: { resourceId?: string } }>();
    const shown = [...(body.accounts ?? []), ...(body.account ? [body.account] : [])].map((a) => a.resourceId);
    const covered = consent.accounts.map((a) => a.resourceId);
    expect(
      shown.length,
      because(`_links.account (${href}) leads to an account list or an account; got ${res.describe()}`),
    ).toBeGreaterThan(0);
    expect(
      shown.filter((id) => !covered.includes(id!)),
      because(`_links.account (${href}) shows only accounts the consent covers (${covered.join(', ')})`),
    ).toEqual([]);
  },
);
