import { randomUUID } from 'node:crypto';
import type { HeaderSpec } from '../../harness/http/client.js';
import {
  authoriseRefusalControl,
  because,
  expect,
  expectAuthoriseRefused,
  req,
  test as oauthTest,
  type RedirectFlow,
} from '../../harness/areas/oauth.js';
import { firstClaimed, PaymentsClient } from '../../harness/areas/payments.js';
import { BasketsClient } from '../../harness/areas/signing-baskets.js';
import { authorizeUrlFor } from '../../harness/sca/psu-agent.js';

// The authorise request of the redirect flow (endpoint section F), for each kind of resource the
// profile claims: a consent, a payment and a signing basket. A request that is malformed, or not
// the resource's, is refused: judged on the bank's own answer to it, whatever agent plays the PSU
// (harness/areas/oauth.ts, expectAuthoriseRefused), next to the same request made valid.

type Kind = 'consent' | 'payment' | 'basket';

/** Redirect starts on fresh resources of each kind, and their cleanup. */
class Starts {
  constructor(
    readonly redirect: RedirectFlow,
    readonly payments: PaymentsClient,
    readonly baskets: BasketsClient,
  ) {}

  get target() {
    return this.redirect.target;
  }

  /** The kinds of resource the profile claims with a redirect flow. */
  kinds(): Kind[] {
    const f = this.target.profile.features;
    const pay = f.includes('payments') && firstClaimed(this.target) !== undefined;
    return [
      'consent',
      ...(pay ? (['payment'] as const) : []),
      ...(pay && f.includes('signing-baskets') ? (['basket'] as const) : []),
    ];
  }

  /** The TPP's authorise URL for a fresh resource of `kind`: the scaOAuth link with the TPP's state, redirect URI and client id. */
  async authorizeUrl(kind: Kind): Promise<string> {
    if (kind === 'consent') {
      const start = await this.redirect.begin();
      expect(start.authorizeUrl, because(`a scaOAuth link on a consent: ${start.started.describe()}`)).toBeTruthy();
      return start.authorizeUrl!;
    }
    let basePath: string;
    const c = firstClaimed(this.target)!;
    if (kind === 'payment') basePath = (await this.payments.initiated(c)).basePath;
    else basePath = (await this.baskets.createdBasket(1)).basePath;
    const headers: HeaderSpec = {
      ...this.payments.psuHeaders(),
      'TPP-Redirect-Preferred': 'true',
      'TPP-Redirect-URI': this.target.redirectUri,
    };
    const sca = kind === 'payment' ? this.payments.sca : this.baskets.sca;
    const created = await sca.create(basePath, 'authorisations', headers);
    const authorisationId = (created.body as { authorisationId?: string } | undefined)?.authorisationId;
    expect(authorisationId, because(`create an authorisation on the ${kind}: ${created.describe()}`)).toBeTruthy();
    const started = await sca.start(`${basePath}/authorisations/${authorisationId}`, 'mbid', headers);
    const href = (started.body as { _links?: { scaOAuth?: { href?: string } } } | undefined)?._links?.scaOAuth?.href;
    expect(href, because(`a scaOAuth link on the ${kind}: ${started.describe()}`)).toBeTruthy();
    return authorizeUrlFor(href!, {
      state: randomUUID(),
      redirectUri: this.target.redirectUri,
      clientId: this.target.clientId,
    });
  }
}

const test = oauthTest.extend<{ starts: Starts }>({
  starts: async ({ redirect, api }, use) => {
    const payments = new PaymentsClient(api.with({ scope: 'paymentinitiation', bicFi: true }));
    const baskets = new BasketsClient(api.with({ scope: 'paymentinitiation', bicFi: true }), payments);
    await use(new Starts(redirect, payments, baskets));
    for (const id of baskets.created) await baskets.delete(id).catch(() => undefined);
    for (const p of payments.created) await payments.cancel(p).catch(() => undefined);
  },
});

type Edit = (q: URLSearchParams, kind: Kind) => void;

/**
 * Each edited authorise URL of each kind of resource must be refused and issue no code, next to
 * the same URL unedited on the same fresh resource (its positive control).
 */
async function expectNoCode(starts: Starts, cases: [string, Edit][]) {
  authoriseRefusalControl();
  for (const kind of starts.kinds()) {
    for (const [what, edit] of cases) {
      const valid = await starts.authorizeUrl(kind);
      const u = new URL(valid);
      edit(u.searchParams, kind);
      await expectAuthoriseRefused(starts.redirect, { valid, edited: u.toString(), what: `${what} (a ${kind})` });
    }
  }
}

test(
  'an authorise request without response_type, or with one other than code, issues no code',
  req('oauth.authorize.response-type'),
  async ({ starts }) => {
    await expectNoCode(starts, [
      ['no response_type', (q) => q.delete('response_type')],
      ['response_type=token', (q) => q.set('response_type', 'token')],
    ]);
  },
);

test(
  "an authorise request without client_id, or with another application's, issues no code",
  req('oauth.authorize.client-id'),
  async ({ starts, target }) => {
    const another = target.secondClient?.clientId ?? `no-such-client-${randomUUID().slice(0, 8)}`;
    await expectNoCode(starts, [
      ['no client_id', (q) => q.delete('client_id')],
      [
        target.secondClient ? 'the client_id of another application' : 'an unknown client_id',
        (q) => q.set('client_id', another),
      ],
    ]);
  },
);

test(
  "an authorise request without scope, or with a scope that is not the resource's, issues no code",
  req('oauth.authorize.scope'),
  async ({ starts, target }) => {
    const context = target.profile.psuContext;
    await expectNoCode(starts, [
      ['no scope', (q) => q.delete('scope')],
      ['an unsupported scope', (q) => q.set('scope', `openid ${context}`)],
      [
        "the other API scope than the resource's",
        (q, kind) => q.set('scope', `${kind === 'consent' ? 'paymentinitiation' : 'accountinformation'} ${context}`),
      ],
    ]);
  },
);

test('an authorise request without state issues no code', req('oauth.authorize.state-required'), async ({ starts }) => {
  await expectNoCode(starts, [['no state', (q) => q.delete('state')]]);
});

/** The acr_values entry naming the resource (`<resource>Id:<id>`, either casing), not idp nor the authorisation. */
const isResourceEntry = (e: string) => /^[A-Za-z]+Id:/.test(e) && !/AuthorisationId:/.test(e);

test(
  'an authorise request whose acr_values name an unknown or no resource id issues no code',
  req('oauth.authorize.acr-values'),
  async ({ starts }) => {
    const entries = (q: URLSearchParams) => (q.get('acr_values') ?? '').split(/\s+/).filter(Boolean);
    await expectNoCode(starts, [
      [
        'an unknown resource id in acr_values',
        (q) =>
          q.set(
            'acr_values',
            entries(q)
              .map((e) => (isResourceEntry(e) ? `${e.split(':')[0]}:${randomUUID()}` : e))
              .join(' '),
          ),
      ],
      [
        'no resource id in acr_values',
        (q) =>
          q.set(
            'acr_values',
            entries(q)
              .filter((e) => !isResourceEntry(e))
              .join(' '),
          ),
      ],
    ]);
  },
);
