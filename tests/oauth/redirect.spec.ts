import {
  authoriseRefusalControl,
  because,
  expect,
  expectAuthoriseRefused,
  expectScaOAuthClientFields,
  expectScaOAuthLink,
  req,
  returnOf,
  test,
  words,
} from '../../harness/areas/oauth.js';
import { block, prerequisite } from '../../harness/http/broken.js';
import { linkUrl } from '../../harness/http/links.js';
import { authorizeUrlFor } from '../../harness/sca/psu-agent.js';

test(
  'starting with mbid gives the REDIRECT approach and an scaOAuth link to the authorise URL',
  req('oauth.sca-oauth.link'),
  async ({ redirect, target }) => {
    const start = await redirect.begin();
    const { acr, query: q } = await expectScaOAuthLink(
      start,
      target,
      redirect.scope,
      'scope is the resourceScope of a consent',
    );
    expect(acr.length, because(`acr_values holds three space-separated entries; got "${q.get('acr_values')}"`)).toBe(3);
    expect(acr[0], because('the first acr_values entry is idp:<bicfi>')).toBe(`idp:${target.bicFi}`);
    expect(acr[1], because('the second acr_values entry is consentId:<consent id>')).toBe(
      `consentId:${start.consentId}`,
    );
    expect(
      acr[2],
      because(
        'the third acr_values entry is ConsentAuthorisationId:<authorisation id> (either casing of the first letter)',
      ),
    ).toMatch(new RegExp(`^[Cc]onsentAuthorisationId:${start.authorisationId}$`));
  },
);

test(
  'the scaOAuth link names the parameters the client fills: client_id, redirect_uri and state',
  req('oauth.sca-oauth.client-fields'),
  async ({ redirect, target }) => {
    const start = await redirect.begin();
    await prerequisite('oauth.sca-oauth.link', 'a scaOAuth link on the consent', async () =>
      expect(start.scaOAuth, `a scaOAuth link: ${start.started.describe()}`).toBeTruthy(),
    );
    expectScaOAuthClientFields(start, target);
  },
);

test(
  'acr_values spells ConsentAuthorisationId with the ResourceType casing',
  req('oauth.sca-oauth.acr-casing'),
  async ({ redirect, target }) => {
    const start = await redirect.begin();
    const acr = start.scaOAuth ? (linkUrl(target, start.scaOAuth).searchParams.get('acr_values') ?? '') : '';
    expect(
      acr.split(' ')[2] ?? '',
      because(`the specification's <ResourceType>AuthorisationId gives ConsentAuthorisationId; acr_values "${acr}"`),
    ).toMatch(/^ConsentAuthorisationId:/);
  },
);

test(
  'approving at the authorise URL routes the PSU back to the redirect URI with a code and the scope',
  req('oauth.authorize.approve'),
  async ({ redirect, target }) => {
    const start = await redirect.begin();
    const r = await redirect.psu(start, 'approve');
    // Section F states where the PSU comes back and with what, not how: any agent, any kind of return.
    expect(
      r.location ? `${r.location.origin}${r.location.pathname}` : undefined,
      because(`the bank routes the PSU back to the redirect URI; ${returnOf(r)}`),
    ).toBe(target.redirectUri);
    expect(r.code, because(`the return carries a code; ${returnOf(r)}`)).toBeTruthy();
    expect(words(r.scope), because('the return carries the scope')).toEqual(words(redirect.scope));
  },
);

test(
  'the redirect after approval carries the exact state of the authorise URL',
  req('oauth.authorize.state'),
  async ({ redirect }) => {
    const start = await redirect.begin();
    const r = await redirect.psu(start, 'approve');
    expect(r.location, because(`approval must route the PSU back: ${returnOf(r)}`)).toBeTruthy();
    expect(r.state, because(`state must come back unchanged (sent ${start.state.length} characters)`)).toBe(
      start.state,
    );
  },
);

test(
  'the redirect after the PSU denies carries the state the TPP sent, as after approval',
  req('oauth.authorize.state'),
  async ({ redirect }) => {
    // "the bank returns the PSU to the TPP's redirect URI with code, scope and state": the state is
    // the TPP's session, whatever the PSU decided (a denial's return has no code, RFC 6749 4.1.2.1).
    const start = await redirect.begin();
    const r = await redirect.psu(start, 'deny');
    test.skip(!r.location, `not judged: the denial does not route the PSU back (${returnOf(r)})`);
    expect(
      r.state,
      because(`state must come back unchanged after a denial (sent ${start.state.length} characters); ${returnOf(r)}`),
    ).toBe(start.state);
  },
);

test(
  'a redirect_uri outside the whitelist is refused and nothing is redirected to it',
  req('oauth.authorize.redirect-whitelist'),
  async ({ redirect, target }) => {
    authoriseRefusalControl();
    const start = await redirect.begin();
    if (!start.authorizeUrl) block('oauth.sca-oauth.link', 'a scaOAuth link to follow', start.started.describe());
    const evil = 'https://not-whitelisted.example/steal';
    await expectAuthoriseRefused(redirect, {
      valid: start.authorizeUrl,
      edited: authorizeUrlFor(start.scaOAuth!, { state: start.state, redirectUri: evil, clientId: target.clientId }),
      what: 'a redirect_uri outside the whitelist',
      untrusted: evil,
    });
  },
);

test(
  'denying at the authorise URL fails the authorisation',
  req('oauth.authorize.deny'),
  async ({ redirect, authorisations }) => {
    const start = await redirect.begin();
    const r = await redirect.psu(start, 'deny');
    const { status } = await authorisations.sca.pollUntilEnd(start.href, 500, authorisations.headers());
    expect(status, because(`the PSU denied: the SCA fails; ${returnOf(r)}`)).toBe('failed');
  },
);
