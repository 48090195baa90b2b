import type { HeaderSpec } from '../../harness/http/client.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { because, expect, offeredMethod, req, test } from '../../harness/areas/authorisations.js';
import { block } from '../../harness/http/broken.js';
import { PaymentsClient } from '../../harness/areas/payments.js';

// TPP-Redirect-Preferred false (Endpoints > Common request headers): "false: no redirect; the bank
// picks embedded or decoupled". Judged on every SCA method the bank offers, on consents and payments.

const DECOUPLED_IDS = ['mbid_same_device', 'mbid_animated_qr_token', 'mbid_animated_qr_image'];
const NO_REDIRECT: HeaderSpec = { 'TPP-Redirect-Preferred': 'false' };

/** The decoupled methods among those offered: the decoupled ids, and mbid where mbid_same_device is not offered (section F). */
const decoupledOf = (offered: string[]) => [
  ...DECOUPLED_IDS.filter((m) => offered.includes(m)),
  ...(offered.includes('mbid') && !offered.includes('mbid_same_device') ? ['mbid'] : []),
];

const idsOf = (res: ApiResponse): string[] =>
  ((res.body as { scaMethods?: { authenticationMethodId?: string }[] } | undefined)?.scaMethods ?? [])
    .map((m) => m.authenticationMethodId)
    .filter((m): m is string => typeof m === 'string');

/** What in an answer is a redirect: the approach REDIRECT, a scaRedirect or a scaOAuth link. */
function redirectsIn(res: ApiResponse): string[] {
  const found: string[] = [];
  const approach = res.header('aspsp-sca-approach');
  if (approach !== undefined && approach.toUpperCase() === 'REDIRECT') found.push('aspsp-sca-approach REDIRECT');
  const links = (res.body as { _links?: Record<string, unknown> } | undefined)?._links ?? {};
  for (const name of ['scaRedirect', 'scaOAuth']) if (name in links) found.push(`_links.${name}`);
  return found;
}

/** A start answer with TPP-Redirect-Preferred false: refused (a 4xx), or started without a redirect; true when it started. */
async function expectNoRedirect(res: ApiResponse, what: string): Promise<boolean> {
  if (res.status >= 400 && res.status < 500) {
    await expect.soft(res, `${what} with TPP-Redirect-Preferred false`).toBeRefused();
    return false;
  }
  expect
    .soft(redirectsIn(res), because(`${what} with TPP-Redirect-Preferred false answers no redirect (${res.label})`))
    .toEqual([]);
  return res.status >= 200 && res.status < 300;
}

/** "false: no redirect; the bank picks embedded or decoupled": a method must start so, not every one be refused. */
const expectSomeStarted = (started: number, methods: string[], what: string) =>
  expect(
    started,
    because(
      `${what}: with TPP-Redirect-Preferred false the bank picks embedded or decoupled, so at least one offered method (${methods.join(', ')}) starts; every start was refused`,
    ),
  ).toBeGreaterThan(0);

test(
  'with TPP-Redirect-Preferred false every decoupled method offered starts DECOUPLED with challengeData, never REDIRECT',
  req('authorisations.start.decoupled'),
  async ({ authorisations }) => {
    const probe = await authorisations.begin();
    const methods = decoupledOf(probe.methods.map((m) => m.authenticationMethodId));
    // No decoupled method offered: blocked by the answer that offers the methods, never a failure of this rule.
    await offeredMethod(probe, () => methods[0], 'a decoupled start with TPP-Redirect-Preferred false');
    for (const method of methods) {
      await test.step(method, async () => {
        const b = await authorisations.begin({ method });
        const started = b.started!;
        await expect.soft(started, `start with ${method}`).toSucceed();
        await expect.soft(started, `start with ${method}`).toHaveHeader('aspsp-sca-approach', /^DECOUPLED$/i);
        await expect.soft(started, `start with ${method}`).toMatchSchema('authorisations/authorisation-started');
      });
    }
  },
);

test(
  'on a consent, TPP-Redirect-Preferred false gives no redirect with any method the bank offers',
  req('authorisations.redirect-preferred.false-consents'),
  async ({ authorisations }) => {
    const probe = await authorisations.begin();
    await expectNoRedirect(probe.created, 'create authorisation');
    const methods = probe.methods.map((m) => m.authenticationMethodId);
    await offeredMethod(probe, () => methods[0], 'a start with TPP-Redirect-Preferred false');
    let started = 0;
    for (const method of methods) {
      const b = await authorisations.begin({ method });
      if (await expectNoRedirect(b.started!, `start with ${method}`)) started++;
    }
    expectSomeStarted(started, methods, 'on a consent');
  },
);

test(
  'on a payment, TPP-Redirect-Preferred false gives no redirect on initiation, create authorisation, nor with any method the bank offers',
  req('authorisations.redirect-preferred.false-payments'),
  async ({ api, claimedPayment: c }) => {
    const payments = new PaymentsClient(api.with({ scope: 'paymentinitiation', bicFi: true }));
    const headers = { ...payments.psuHeaders(), ...NO_REDIRECT };
    /** A payment initiated with TPP-Redirect-Preferred false and an authorisation created on it. */
    const begin = async () => {
      const p = await payments.initiated(c, { headers: NO_REDIRECT });
      const created = await payments.sca.create(p.basePath, 'authorisations', headers);
      const id = (created.body as { authorisationId?: string } | undefined)?.authorisationId;
      if (!(created.status >= 200 && created.status < 300 && id))
        block(
          'payments.authorisations.create',
          'create an authorisation on the payment',
          `expected a 2xx with an authorisationId; got ${created.describe()}`,
        );
      return { ...p, created, href: `${p.basePath}/authorisations/${id}` };
    };
    try {
      const probe = await begin();
      await expectNoRedirect(probe.res, 'initiate payment');
      await expectNoRedirect(probe.created, 'create authorisation on the payment');
      const methods = idsOf(probe.created);
      if (!methods.length)
        block(
          'payments.authorisations.create',
          'an SCA method offered on the payment',
          `scaMethods offers no method: ${probe.created.describe()}`,
        );
      let started = 0;
      for (const [i, method] of methods.entries()) {
        const p = i === 0 ? probe : await begin();
        if (
          await expectNoRedirect(
            await payments.sca.start(p.href, method, headers),
            `start with ${method} on the payment`,
          )
        )
          started++;
      }
      expectSomeStarted(started, methods, 'on a payment');
    } finally {
      for (const basePath of payments.created) await payments.cancel(basePath).catch(() => undefined);
    }
  },
);
