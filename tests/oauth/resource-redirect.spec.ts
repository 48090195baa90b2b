import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import {
  because,
  expect,
  expectScaOAuthClientFields,
  expectScaOAuthLink,
  expectTokenScope,
  req,
  resourceTest as test,
  returnOf,
  RESOURCE_WORDS,
  type PaymentResource,
  words,
} from '../../harness/areas/oauth.js';

// The redirect flow (endpoint sections F and G) on payments and signing baskets, as
// tests/oauth/redirect.spec.ts judges it on consents: the resource variables give the scope
// (paymentinitiation) and the words of acr_values and of the token exchange headers.

/** Each kind with the ids of its checks, written out. */
const KINDS: { kind: PaymentResource; link: string; clientFields: string; flow: string }[] = [
  {
    kind: 'payment',
    link: 'oauth.sca-oauth.payment-link',
    clientFields: 'oauth.sca-oauth.payment-client-fields',
    flow: 'oauth.redirect.payment-flow',
  },
  {
    kind: 'basket',
    link: 'oauth.sca-oauth.basket-link',
    clientFields: 'oauth.sca-oauth.basket-client-fields',
    flow: 'oauth.redirect.basket-flow',
  },
];

for (const { kind, ...ids } of KINDS) {
  const { resource, ResourceType } = RESOURCE_WORDS[kind];

  test(
    `the token's scope, when a ${kind}'s code exchange gives one, combines paymentinitiation with the PSU context scope`,
    req('oauth.token.scope-context'),
    async ({ resourceRedirect: flow }) => {
      const start = await flow.begin(kind);
      await prerequisite(ids.link, `a scaOAuth link on the ${kind}`, async () =>
        expect(start.authorizeUrl, `a scaOAuth link: ${start.started.describe()}`).toBeTruthy(),
      );
      const r = await flow.psu(start, 'approve');
      await prerequisite(ids.flow, `the PSU approves the ${kind}'s redirect`, async () =>
        expect(r.code, `a code: ${(r.submitted ?? r.page).describe()}`).toBeTruthy(),
      );
      const res = await flow.exchange(start, r.code);
      await prerequisite(ids.flow, `exchange the ${kind}'s code`, async () => expect(res).toSucceed());
      expectTokenScope(res, flow.scope, kind);
    },
  );

  test(
    `starting a ${kind}'s authorisation with mbid gives REDIRECT and an scaOAuth link with the ${kind}'s scope, response_type=code and exact acr_values`,
    req(ids.link),
    async ({ resourceRedirect: flow, target }) => {
      const start = await flow.begin(kind);
      const { acr, query: q } = await expectScaOAuthLink(
        start,
        target,
        flow.scope,
        `scope is the resourceScope of a ${kind}: paymentinitiation plus the PSU context`,
      );
      expect(
        acr,
        because(
          `acr_values holds exactly three space-separated entries idp:<bicfi>, ${resource}Id:<id>, ${ResourceType}AuthorisationId:<id>; got "${q.get('acr_values')}"`,
        ),
      ).toHaveLength(3);
      expect(acr[0], because('the first acr_values entry is idp:<bicfi>')).toBe(`idp:${target.bicFi}`);
      expect(acr[1], because(`the second acr_values entry is ${resource}Id:<${kind} id>`)).toBe(
        `${resource}Id:${start.resourceId}`,
      );
      const first = ResourceType[0];
      expect(
        acr[2],
        because(
          `the third acr_values entry is ${ResourceType}AuthorisationId:<authorisation id> (either casing of the first letter)`,
        ),
      ).toMatch(
        new RegExp(
          `^[${first}${first.toLowerCase()}]${ResourceType.slice(1)}AuthorisationId:${start.authorisationId}$`,
        ),
      );
    },
  );

  test(
    `the scaOAuth link of a ${kind} names the parameters the client fills: client_id, redirect_uri and state`,
    req(ids.clientFields),
    async ({ resourceRedirect: flow, target }) => {
      const start = await flow.begin(kind);
      await prerequisite(ids.link, `a scaOAuth link on the ${kind}`, async () =>
        expect(start.scaOAuth, `a scaOAuth link: ${start.started.describe()}`).toBeTruthy(),
      );
      expectScaOAuthClientFields(start, target);
    },
  );

  test(
    `approving a ${kind}'s redirect returns code, scope and the exact state, and the code exchange finalises its SCA`,
    req(ids.flow),
    async ({ resourceRedirect: flow, target }) => {
      const start = await flow.begin(kind);
      await prerequisite(ids.link, `a scaOAuth link on the ${kind}`, async () =>
        expect(start.authorizeUrl, `a scaOAuth link: ${start.started.describe()}`).toBeTruthy(),
      );
      const r = await flow.psu(start, 'approve');
      expect(
        r.location ? `${r.location.origin}${r.location.pathname}` : undefined,
        because(`the bank routes the PSU back to the redirect URI; ${returnOf(r)}`),
      ).toBe(target.redirectUri);
      expect(r.code, because(`the return carries a code; ${returnOf(r)}`)).toBeTruthy();
      expect(words(r.scope), because(`the redirect carries the ${kind}'s scope`)).toEqual(words(flow.scope));
      expect(r.state, because(`state must come back unchanged (sent ${start.state.length} characters)`)).toBe(
        start.state,
      );
      const res = await flow.exchange(start, r.code);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('oauth/token-response');
      const sca = kind === 'payment' ? flow.payments.sca : flow.baskets.sca;
      const { status } = await sca.pollUntilEnd(start.href, 500, flow.payments.psuHeaders());
      expect(status, because(`after the code exchange the ${kind}'s SCA is finalised`)).toBe('finalised');
    },
  );
}

test(
  "a payment's code exchanged with headers naming another payment is refused",
  req('oauth.token.resource-mismatch'),
  async ({ resourceRedirect: flow }) => {
    const start = await flow.begin('payment');
    await prerequisite('oauth.sca-oauth.payment-link', 'a scaOAuth link on the payment', async () =>
      expect(start.authorizeUrl, `a scaOAuth link: ${start.started.describe()}`).toBeTruthy(),
    );
    const other = await flow.resource('payment');
    const { authorisationId: otherAuthorisation } = await flow.authorisation('payment', other.basePath);
    const r = await flow.psu(start, 'approve');
    await prerequisite('oauth.redirect.payment-flow', "the PSU approves the payment's redirect", async () =>
      expect(r.code, `a code: ${(r.submitted ?? r.page).describe()}`).toBeTruthy(),
    );
    for (const [what, ids] of [
      ['X-PaymentId of another payment', { resourceId: other.id }],
      [
        "X-PaymentId and X-PaymentAuthorisationId of another payment's authorisation",
        { resourceId: other.id, authorisationId: otherAuthorisation },
      ],
    ] as const) {
      const res = await flow.exchange(start, r.code, ids);
      await expect.soft(res, `a code exchange with ${what}`).toBeRefused();
      expect
        .soft(
          (res.body as { access_token?: unknown } | undefined)?.access_token,
          because(`no access_token for a code exchange with ${what}`),
        )
        .toBeUndefined();
    }
  },
);

test(
  'a payment read and a payment status read with an accountinformation token are refused',
  req('oauth.scope.payments'),
  async ({ payments, claimedPayment }) => {
    const { basePath } = await payments.initiated(claimedPayment);
    // The positive controls: the same reads with the payment's own scope, paymentinitiation, answered.
    requireSuccess(await payments.api.get(basePath), 'payments.read.fields', 'read the payment (paymentinitiation)');
    requireSuccess(
      await payments.api.get(`${basePath}/status`),
      'payments.status.response',
      'read the payment status (paymentinitiation)',
    );
    const scope = 'accountinformation';
    await expect.soft(await payments.api.get(basePath, { scope }), 'read payment').toHaveStatus([401, 403]);
    await expect
      .soft(await payments.api.get(`${basePath}/status`, { scope }), 'payment status')
      .toHaveStatus([401, 403]);
  },
);

test(
  'a basket read and a basket status read with an accountinformation token are refused',
  req('oauth.scope.baskets'),
  async ({ baskets, basketPayment: _ }) => {
    const { basketId, basePath } = await baskets.createdBasket(1);
    requireSuccess(
      await baskets.api.get(basePath),
      'signing-baskets.read.response',
      'read the basket (paymentinitiation)',
    );
    requireSuccess(
      await baskets.api.get(`${baskets.basePath(basketId)}/status`),
      'signing-baskets.status.response',
      'read the basket status (paymentinitiation)',
    );
    const scope = 'accountinformation';
    await expect.soft(await baskets.api.get(basePath, { scope }), 'read basket').toHaveStatus([401, 403]);
    await expect
      .soft(await baskets.api.get(`${baskets.basePath(basketId)}/status`, { scope }), 'basket status')
      .toHaveStatus([401, 403]);
  },
);
