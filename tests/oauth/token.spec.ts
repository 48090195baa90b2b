import { prerequisite } from '../../harness/http/broken.js';
import { because, expect, expectTokenScope, req, test } from '../../harness/areas/oauth.js';

test(
  'exchanging the code gives a Bearer token and finalises the SCA',
  req('oauth.token.exchange'),
  async ({ redirect, authorisations }) => {
    const { start, result } = await redirect.approved();
    const res = await redirect.exchange(start, result.code);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('oauth/token-response');
    const { status } = await authorisations.sca.pollUntilEnd(start.href, 500, authorisations.headers());
    expect(status, because('after the code exchange the SCA is finalised')).toBe('finalised');
  },
);

test(
  'the code exchange answers every listed field: access_token, expires_in, token_type and scope',
  req('oauth.token.complete'),
  async ({ redirect }) => {
    const { start, result } = await redirect.approved();
    const res = await redirect.exchange(start, result.code);
    await prerequisite('oauth.token.exchange', 'exchange the code', async () => expect(res).toSucceed());
    await expect(res).toMatchSchema('oauth/token-response-complete');
  },
);

test(
  "the token's scope, when the code exchange gives one, combines the consent's API scope with the PSU context scope",
  req('oauth.token.scope-context'),
  async ({ redirect }) => {
    const { start, result } = await redirect.approved();
    const res = await redirect.exchange(start, result.code);
    await prerequisite('oauth.token.exchange', 'exchange the code', async () => expect(res).toSucceed());
    expectTokenScope(res, redirect.scope, 'consent');
  },
);

test(
  'a code exchange with the wrong client_secret is refused',
  req('oauth.token.wrong-secret'),
  async ({ redirect }) => {
    const { start, result } = await redirect.approved();
    await expect(
      await redirect.exchange(start, result.code, { form: { client_secret: 'wrong-secret-0000' } }),
      'an exchange with the wrong client_secret',
    ).toBeRefused();
  },
);

test(
  'a code exchange with another redirect_uri is refused',
  req('oauth.token.redirect-uri'),
  async ({ redirect, target }) => {
    const { start, result } = await redirect.approved();
    await expect(
      await redirect.exchange(start, result.code, { form: { redirect_uri: `${target.redirectUri}/other` } }),
      'an exchange whose redirect_uri differs from the authorise request',
    ).toBeRefused();
  },
);

test(
  'a code exchange with a missing grant_type, or one outside the enum, is refused',
  req('oauth.token.grant-type'),
  async ({ redirect }) => {
    const { start, result } = await redirect.approved();
    for (const grant_type of [undefined, 'authorisation_code']) {
      await expect(
        await redirect.exchange(start, result.code, { form: { grant_type } }),
        `an exchange with grant_type ${grant_type === undefined ? 'missing' : `"${grant_type}"`} (the enum: authorization_code)`,
      ).toBeRefused();
    }
  },
);

test('a code is exchanged only once', req('oauth.token.single-use'), async ({ redirect }) => {
  const { start, result } = await redirect.approved();
  await expect(await redirect.exchange(start, result.code)).toSucceed();
  await expect(await redirect.exchange(start, result.code), 'the second exchange of the same code').toBeRefused();
});

test(
  'a code exchange without X-ConsentId or X-ConsentAuthorisationId is rejected with 400',
  req('oauth.token.headers-required'),
  async ({ redirect }) => {
    const { start, result } = await redirect.approved();
    for (const missing of ['X-ConsentId', 'X-ConsentAuthorisationId']) {
      const res = await redirect.exchange(start, result.code, { headers: { [missing]: null } });
      await expect(res, `an exchange without ${missing}`).toBeRefused(400);
    }
  },
);

for (const status of [undefined, 400] as const) {
  test(
    `a code exchange sent as JSON is ${status ? `answered ${status}` : 'refused'}`,
    req(status ? 'oauth.token.form-only-code' : 'oauth.token.form-only'),
    async ({ redirect }) => {
      const { start, result } = await redirect.approved();
      const res = await redirect.exchange(start, result.code, { json: true });
      await expect(res, 'the token endpoint takes application/x-www-form-urlencoded, not a JSON body').toBeRefused(
        status,
      );
    },
  );
}

test(
  'refused exchanges answer RFC 6749 error bodies: invalid_client, invalid_grant',
  req('oauth.token.error-body'),
  async ({ redirect, target }) => {
    const { start, result } = await redirect.approved();
    const wrongSecret = await redirect.exchange(start, result.code, { form: { client_secret: 'wrong-secret-0000' } });
    await expect(wrongSecret).toHaveStatus(401);
    await expect(wrongSecret).toMatchSchema('oauth/error');
    expect(wrongSecret.json().error, because('a wrong client_secret is invalid_client')).toBe('invalid_client');
    const otherUri = await redirect.exchange(start, result.code, {
      form: { redirect_uri: `${target.redirectUri}/other` },
    });
    await expect(otherUri).toHaveStatus(400);
    expect(otherUri.json().error, because('another redirect_uri is invalid_grant')).toBe('invalid_grant');
    await expect(await redirect.exchange(start, result.code)).toSucceed();
    const reused = await redirect.exchange(start, result.code);
    await expect(reused).toHaveStatus(400);
    expect(reused.json().error, because('a reused code is invalid_grant')).toBe('invalid_grant');
  },
);
