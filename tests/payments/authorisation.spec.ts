import {
  ACCEPTED,
  AUTHORISED_SCA,
  because,
  expect,
  forEachCombination,
  label,
  req,
  test,
  settleMs,
} from '../../harness/areas/payments.js';
import { requireSuccess } from '../../harness/http/broken.js';
import { linkUrl } from '../../harness/http/links.js';
import { redirectMethod } from '../../harness/sca/driver.js';

forEachCombination(() => {
  test(
    'once the SCA is finalised the payment leaves RCVD for an accepted status',
    req('payments.sca.accepted'),
    async ({ payments, combination }) => {
      const { basePath, sca } = await payments.initiateAuthorised(combination);
      expect(sca.scaStatus, because('the SCA of the reference PSU finalises, or none is needed')).toMatch(
        AUTHORISED_SCA,
      );
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because(
            `transactionStatus of the ${label(combination)} payment after its SCA, expected one of ${ACCEPTED.join(', ')}`,
          ),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
    },
  );

  test(
    'a failed SCA rejects the payment (RJCT)',
    req('payments.sca.rejected'),
    async ({ payments, combination, failingPsu: failing }) => {
      const psu = { 'PSU-ID': failing };
      const { basePath, sca } = await payments.initiateAuthorised(combination, { headers: psu, sca: { headers: psu } });
      expect(sca.scaStatus, because(`the SCA of PSU ${failing} fails`)).toBe('failed');
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because(`transactionStatus of the ${label(combination)} payment after a failed SCA`),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toBe('RJCT');
    },
  );

  test(
    'creating an authorisation answers a success with an authorisationId and a scaMethods array, and received when it gives scaStatus',
    req('payments.authorisations.create'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.sca.create(basePath, 'authorisations', payments.psuHeaders());
      await expect(res).toSucceed();
      const body = res.json<{ authorisationId?: string; scaStatus?: string; scaMethods?: unknown[] }>();
      expect(body.authorisationId, because('an authorisationId')).toEqual(expect.any(String));
      // scaStatus is listed, not required (authorisations.create.complete): when given, it is received.
      if (body.scaStatus !== undefined)
        expect(body.scaStatus, because('a new authorisation is received (States > Authorisation)')).toBe('received');
      // The response names scaMethods (an array); how many methods it holds is not stated.
      expect(
        Array.isArray(body.scaMethods),
        because(`a scaMethods array; got ${JSON.stringify(body.scaMethods)}`),
      ).toBe(true);
      // Each SCA method's shape, and _links (scaStatus among them) as links (flow guide create response).
      await expect(res).toMatchSchema('authorisations/authorisation-created');
      // psuMessage and _links.scaStatus of the authorisation start response: typed when given.
      await expect(res).toMatchSchema('authorisations/authorisation-start');
    },
  );

  test(
    'creating an authorisation is answered 201',
    req('payments.authorisations.create-code'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      await expect(await payments.sca.create(basePath, 'authorisations', payments.psuHeaders())).toHaveStatus(201);
    },
  );

  test(
    'the authorisation list holds every authorisation created on the payment',
    req('payments.authorisations.list'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const created = await payments.sca.create(basePath, 'authorisations', payments.psuHeaders());
        // A bank may refuse a second authorisation while the first is open (one SCA is called for
        // outside a corporate context); the list then holds the first alone.
        if (i > 0 && created.status >= 400 && created.status < 500) {
          await expect(created, 'a second authorisation while the first is open').toBeRefused();
          break;
        }
        requireSuccess(created, 'payments.authorisations.create', 'create an authorisation on the payment');
        ids.push(created.json<{ authorisationId: string }>().authorisationId);
      }
      const list = await payments.api.get(`${basePath}/authorisations`);
      await expect(list).toSucceed();
      const listed = list.json<{ authorisationIds?: string[] }>().authorisationIds;
      expect(listed, because('authorisationIds holds the authorisations created')).toEqual(expect.arrayContaining(ids));
    },
  );

  test(
    'the redirect flow answers REDIRECT and a scaOAuth link whose acr_values name the payment',
    req('payments.authorisations.redirect'),
    async ({ payments, combination }) => {
      const { paymentId, basePath } = await payments.initiated(combination);
      const redirect = { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': payments.target.redirectUri };
      const created = await payments.sca.create(basePath, 'authorisations', { ...payments.psuHeaders(), ...redirect });
      requireSuccess(created, 'payments.authorisations.create', 'create an authorisation with the redirect preferred');
      const authorisationId = created.json<{ authorisationId: string }>().authorisationId;
      // mbid, as section F starts the redirect flow, and only where the bank offered it (blocked otherwise).
      const method = redirectMethod(created, 'payments.authorisations.create');
      const started = await payments.sca.start(`${basePath}/authorisations/${authorisationId}`, method, {
        ...payments.psuHeaders(),
        ...redirect,
      });
      await expect(started).toSucceed();
      await expect(started).toHaveHeader('ASPSP-SCA-Approach', /^REDIRECT$/i);
      const href = started.json<{ _links?: { scaOAuth?: { href?: string } } }>()._links?.scaOAuth?.href;
      expect(href, because('_links.scaOAuth.href in the redirect flow (section F)')).toEqual(expect.any(String));
      const link = linkUrl(payments.target, href!);
      // The authorise endpoint the profile gives (TARGET_AUTH_URL and oauth.authorizePath), never a path of the suite's own.
      expect(
        `${link.origin}${link.pathname}`,
        because('_links.scaOAuth points at the authorise endpoint {auth_url}/<oauth.authorizePath>'),
      ).toBe(payments.target.authorizeUrl);
      const acr = link.searchParams.get('acr_values') ?? '';
      expect(acr, because('acr_values names the payment (paymentId:<id>, casing a variance)')).toMatch(
        new RegExp(`paymentId:${paymentId}`, 'i'),
      );
      expect(acr, because('acr_values names the authorisation')).toMatch(
        new RegExp(`PaymentAuthorisationId:${authorisationId}`, 'i'),
      );
    },
  );

  test(
    'with multilevel SCA the initiation has no scaRedirect or scaOAuth and a startAuthorisation link',
    req('payments.multilevel.no-sca-links'),
    async ({ payments, combination }) => {
      const res = await payments.corporate().initiate(combination, {
        headers: { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': payments.target.redirectUri },
      });
      requireSuccess(res, 'payments.initiate.response', `initiate a ${label(combination)} payment with multilevel SCA`);
      const links = res.json<{ _links?: Record<string, unknown> }>()._links ?? {};
      expect(
        Object.keys(links).filter((k) => k === 'scaRedirect' || k === 'scaOAuth'),
        because('no scaRedirect or scaOAuth link with multilevel SCA (section D)'),
      ).toEqual([]);
      expect(
        links.startAuthorisation,
        because('the authorisation is started through startAuthorisation'),
      ).toBeDefined();
    },
  );

  test(
    'with multilevel SCA the payment is accepted only after the last signer',
    req('payments.multilevel.last-signer'),
    async ({ payments, combination }) => {
      const signers = payments.profile.payments.multilevelSca.signers;
      const corporate = payments.corporate();
      const { basePath } = await corporate.initiated(combination);
      for (let i = 1; i <= signers; i++) {
        const sca = await corporate.authorise(basePath, {
          headers: { 'PSU-ID': `${payments.target.psuId || 'psu'}-signer-${i}` },
        });
        expect(sca.scaStatus, because(`signer ${i} of ${signers} finalises`)).toBe('finalised');
        const status = await corporate.transactionStatus(basePath);
        if (i < signers)
          expect(
            ACCEPTED,
            because(`after ${i} of ${signers} signers the payment is not yet accepted; got ${status}`),
          ).not.toContain(status);
      }
      await expect
        .poll(() => corporate.transactionStatus(basePath), {
          message: because(`transactionStatus after the last of ${signers} signers`),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
    },
  );
});
