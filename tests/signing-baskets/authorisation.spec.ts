import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { because, expect, req, test, type BasketsClient } from '../../harness/areas/signing-baskets.js';

// A basket's authorisation operations (endpoint section E), judged as the consent ones are
// (tests/authorisations/flow.spec.ts), and the rules of its creation and deletion around them.

const DECOUPLED_PREFERENCE = ['mbid_same_device', 'mbid'];

// Every check here fills a basket: asking for basketPayment skips it, before its body, without a claimed payment.
test.beforeEach(({ basketPayment: _ }) => {});

test(
  "a basket's start authorisation (POST, no body) answers a success with authorisationId and the listed fields with their types",
  req('signing-baskets.authorisation.start'),
  async ({ baskets }) => {
    const { basketId } = await baskets.createdBasket();
    const res = await baskets.startAuthorisation(basketId);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('authorisations/authorisation-start');
  },
);

test(
  "a basket's new authorisation is received, when its start answer gives scaStatus",
  req('signing-baskets.authorisation.start-received'),
  async ({ baskets }) => {
    const { basketId } = await baskets.createdBasket();
    const res = await baskets.startAuthorisation(basketId);
    await prerequisite('signing-baskets.authorisation.start', "start the basket's authorisation", async () =>
      expect(res).toSucceed(),
    );
    // A new authorisation is received (States > Authorisation: none → received), a basket's as any other's.
    const { scaStatus } = res.json<{ scaStatus?: unknown }>();
    test.skip(
      scaStatus === undefined,
      'not judged: the start answer gives no scaStatus (its presence is signing-baskets.authorisation.start-complete)',
    );
    expect(scaStatus, because(`${res.label}: the basket's new authorisation is received`)).toBe('received');
  },
);

test(
  "a basket's start authorisation answers scaStatus, authorisationId, psuMessage and the scaStatus link",
  req('signing-baskets.authorisation.start-complete'),
  async ({ baskets }) => {
    const { basketId } = await baskets.createdBasket();
    const res = await baskets.startAuthorisation(basketId);
    await prerequisite('signing-baskets.authorisation.start', "start the basket's authorisation", async () =>
      expect(res).toSucceed(),
    );
    await expect(res).toMatchSchema('authorisations/authorisation-start-complete');
  },
);

/** A basket with an authorisation started with a decoupled method (steps judged by their own requirements). */
async function startedDecoupled(baskets: BasketsClient) {
  const { basketId, basePath } = await baskets.createdBasket();
  const created = await baskets.startAuthorisation(basketId, { 'TPP-Redirect-Preferred': 'false' });
  const { authorisationId, scaMethods } = requireSuccess(
    created,
    'signing-baskets.authorisation.start',
    "start the basket's authorisation",
  ).json<{ authorisationId: string; scaMethods?: { authenticationMethodId: string }[] }>();
  const methods = (scaMethods ?? []).map((m) => m.authenticationMethodId);
  const method = DECOUPLED_PREFERENCE.find((m) => methods.includes(m)) ?? methods[0] ?? 'mbid_same_device';
  const href = `${basePath}/authorisations/${authorisationId}`;
  const headers = { ...baskets.payments.psuHeaders(), 'TPP-Redirect-Preferred': 'false' };
  const started = await baskets.sca.start(href, method, headers);
  await prerequisite('authorisations.start.decoupled', `select ${method} on the basket's authorisation`, async () =>
    expect(started).toSucceed(),
  );
  return { href, headers };
}

test(
  "update PSU data (the empty object) on a basket's decoupled authorisation answers a success and the listed fields with their types",
  req('signing-baskets.authorisation.update-psu-data'),
  async ({ baskets }) => {
    const { href, headers } = await startedDecoupled(baskets);
    const res = await baskets.api.put(href, { json: {}, headers });
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled');
  },
);

test(
  "update PSU data on a basket's decoupled authorisation answers scatransactionStatus, psuMessage and the scaStatus link",
  req('signing-baskets.authorisation.update-psu-data-complete'),
  async ({ baskets }) => {
    const { href, headers } = await startedDecoupled(baskets);
    const res = await baskets.api.put(href, { json: {}, headers });
    await prerequisite('signing-baskets.authorisation.update-psu-data', 'update PSU data', async () =>
      expect(res).toSucceed(),
    );
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled-complete');
  },
);

test(
  'creating a basket starts no authorisation, even with the redirect preferred and no explicit start preferred',
  req('signing-baskets.create.explicit-start'),
  async ({ baskets }) => {
    const items = await baskets.paymentsToSign(2);
    const res = await baskets.create(
      items.map((p) => p.paymentId),
      {
        'TPP-Redirect-Preferred': 'true',
        'TPP-Redirect-URI': baskets.api.target.redirectUri,
        'TPP-Explicit-Authorisation-Preferred': 'false',
      },
    );
    await prerequisite('signing-baskets.create.response', 'create the basket', async () => expect(res).toSucceed());
    const body = res.json<Record<string, unknown> & { _links?: Record<string, unknown> }>();
    expect(
      Object.keys(body._links ?? {}).filter((k) => k === 'scaRedirect' || k === 'scaOAuth'),
      because(
        'a basket is always authorised with an explicit start: its creation carries no scaRedirect or scaOAuth link',
      ),
    ).toEqual([]);
    expect(
      ['authorisationId', 'chosenScaMethod', 'challengeData'].filter((k) => k in body),
      because('a basket is always authorised with an explicit start: its creation starts no authorisation'),
    ).toEqual([]);
  },
);

test(
  'with multilevel SCA, a basket whose first signer has authorised (a partial authorisation) can no longer be deleted',
  req('signing-baskets.delete.after-partial-authorisation'),
  async ({ baskets }) => {
    const signers = baskets.payments.profile.payments.multilevelSca.signers;
    const corporate = baskets.corporate();
    const { basketId } = await corporate.createdBasket();
    const sca = await corporate.authorise(basketId, {
      headers: { 'PSU-ID': `${baskets.api.target.psuId || 'psu'}-signer-1` },
      roots: { create: 'signing-baskets.authorisation.start' },
    });
    await prerequisite('authorisations.status.ends', `the first of ${signers} signers authorises`, async () =>
      expect(sca.scaStatus, because('the SCA of the first signer finalises')).toBe('finalised'),
    );
    const res = await corporate.delete(basketId);
    // The class and no data (the exact code is Berlin Group's, not the specification's).
    await expect(res, because(`deleting the basket after 1 of ${signers} signers`)).toBeRefused();
    await expect(await corporate.read(basketId), because('the basket is still there')).toSucceed();
  },
);

test(
  'start authorisation on a deleted basket, or on one whose SCA finalised or failed, is refused',
  req('signing-baskets.authorisation.final-resource'),
  async ({ baskets }) => {
    const deleted = (await baskets.createdBasket(1)).basketId;
    await prerequisite('signing-baskets.delete.before-authorisation', 'delete the basket', async () =>
      expect(await baskets.delete(deleted)).toSucceed(),
    );
    await expect(
      await baskets.startAuthorisation(deleted, { 'TPP-Redirect-Preferred': 'false' }),
      because('start authorisation on the deleted basket'),
    ).toBeRefused();

    const authorised = (await baskets.createdBasket(1)).basketId;
    const sca = await baskets.authorise(authorised);
    await prerequisite('authorisations.status.ends', "the basket's SCA finalises", async () =>
      expect(sca.scaStatus, because('the SCA of the reference PSU finalises')).toBe('finalised'),
    );
    // With multilevel SCA one signer leaves the basket partly authorised (PATC): a further start is the next signer's.
    const after = (await baskets.status(authorised)).body as { transactionStatus?: string } | undefined;
    if (after?.transactionStatus === 'PATC')
      test.info().annotations.push({ type: 'not judged', description: 'the authorised basket awaits more signers' });
    else
      await expect(
        await baskets.startAuthorisation(authorised, { 'TPP-Redirect-Preferred': 'false' }),
        because('start authorisation on the basket whose SCA finalised'),
      ).toBeRefused();

    const failing = baskets.api.target.profile.sca?.failingPsuId;
    if (!failing) return;
    const psu = { 'PSU-ID': failing };
    const rejected = (await baskets.createdBasket(1)).basketId;
    const failed = await baskets.authorise(rejected, { headers: psu });
    await prerequisite('authorisations.status.ends', `the SCA of PSU ${failing} on the basket fails`, async () =>
      expect(failed.scaStatus, because(`the SCA of PSU ${failing} fails`)).toBe('failed'),
    );
    await expect(
      await baskets.startAuthorisation(rejected, { ...psu, 'TPP-Redirect-Preferred': 'false' }),
      because('start authorisation on the basket whose SCA failed'),
    ).toBeRefused();
  },
);

test(
  'a basket whose authorisation is created, or created and started, but not yet applied can still be deleted',
  req('signing-baskets.delete.before-authorisation'),
  async ({ baskets }) => {
    // "can be deleted only until a first (partial) authorisation has been applied": an authorisation
    // that exists, or is under way, has not been applied.
    const created = (await baskets.createdBasket(1)).basketId;
    await prerequisite('signing-baskets.authorisation.start', "create the basket's authorisation", async () =>
      expect(await baskets.startAuthorisation(created, { 'TPP-Redirect-Preferred': 'false' })).toSucceed(),
    );
    const { href } = await startedDecoupled(baskets);
    const started = href.split('/authorisations/')[0].split('/').pop()!;
    for (const [what, basketId] of [
      ['created (received)', created],
      ['started with a decoupled method', started],
    ] as const) {
      const status = (await baskets.status(basketId)).json<{ transactionStatus?: string }>().transactionStatus;
      if (status !== undefined && status !== 'RCVD') {
        test
          .info()
          .annotations.push({ type: 'not judged', description: `${what}: the basket already reads ${status}` });
        continue;
      }
      await expect(
        await baskets.delete(basketId),
        because(`delete the basket whose authorisation is ${what}`),
      ).toSucceed();
      // And it is gone: its read refused, or (the other reading, signingBaskets.afterDelete) another status.
      const read = await baskets.read(basketId);
      if (read.status >= 300) await expect(read, because(`read the basket deleted while ${what}`)).toBeRefused();
      else
        expect(
          read.json<{ transactionStatus?: string }>().transactionStatus,
          because(`the basket deleted while ${what} does not read as before its deletion`),
        ).not.toBe('RCVD');
    }
  },
);
