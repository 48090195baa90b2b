import { randomUUID } from 'node:crypto';
import {
  because,
  expect,
  firstCancellationAuthorised,
  label,
  req,
  test,
  type Combination,
  type PaymentsClient,
} from '../../harness/areas/payments.js';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import type { HeaderSpec } from '../../harness/http/client.js';
import type { ApiResponse } from '../../harness/http/response.js';

/*
 * The authorisation sub-resources of a payment and of its cancellation, judged operation by
 * operation (endpoint section D; flow guide, section F): the start response of the POST, the
 * start with a decoupled method (PUT), the SCA status, update PSU data, an unknown
 * authorisationId, and a failed SCA that stays failed. One payment of the first claimed kind each.
 */

type Sub = 'authorisations' | 'cancellation-authorisations';

const DECOUPLED_PREFERENCE = ['mbid_same_device', 'mbid'];
/** scaStatus values of an authorisation that has left received and not failed (specification and Berlin Group). */
const UNDER_WAY = ['started', 'psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'finalised'];

/** The requirement whose check judges the POST of each sub-resource: named as root cause when a later step needs it. */
const CREATE_ROOT: Record<Sub, string> = {
  authorisations: 'payments.authorisations.create',
  'cancellation-authorisations': 'payments.cancel.authorisations',
};

const what = (sub: Sub) => (sub === 'authorisations' ? 'payment authorisation' : 'cancellation authorisation');

/** Decoupled headers of the flow guide (TPP-Redirect-Preferred false) with the PSU's identification. */
const headers = (payments: PaymentsClient, extra: HeaderSpec = {}): HeaderSpec => ({
  ...payments.psuHeaders(),
  'TPP-Redirect-Preferred': 'false',
  ...extra,
});

/**
 * The sub-resources the profile claims, each with the payment kind its checks use: a payment's
 * authorisations (`claimed`, the test's claimedPayment), and its cancellation's when claimed.
 */
function claimedSubs(payments: PaymentsClient, claimed: Combination): [Sub, Combination][] {
  const cancellable = firstCancellationAuthorised(payments.target);
  return cancellable
    ? [
        ['authorisations', claimed],
        ['cancellation-authorisations', cancellable],
      ]
    : [['authorisations', claimed]];
}

/**
 * A test body of a check of `sub` that asks for the payment kind it uses: claimedPayment for a
 * payment's authorisations, authorisedCancellation for a cancellation's. Without one the test is
 * skipped before its body, as not claimed.
 */
const withKind = (sub: Sub, body: (payments: PaymentsClient, c: Combination) => Promise<void>) =>
  sub === 'authorisations'
    ? ({ payments, claimedPayment }: { payments: PaymentsClient; claimedPayment: Combination }) =>
        body(payments, claimedPayment)
    : ({ payments, authorisedCancellation }: { payments: PaymentsClient; authorisedCancellation: Combination }) =>
        body(payments, authorisedCancellation);

interface Created {
  c: Combination;
  basePath: string;
  res: ApiResponse;
  headers: HeaderSpec;
}

/** A new payment (cancelled first, for a cancellation authorisation) and the POST that creates an authorisation on it. */
async function create(payments: PaymentsClient, sub: Sub, c: Combination, extra: HeaderSpec = {}): Promise<Created> {
  const h = headers(payments, extra);
  const { basePath } = await payments.initiated(c, { headers: extra });
  if (sub === 'cancellation-authorisations') {
    const cancel = await payments.cancel(basePath);
    await prerequisite('payments.cancel.response', `cancel the ${label(c)} payment`, async () =>
      expect(cancel).toSucceed(),
    );
  }
  return { c, basePath, res: await payments.sca.create(basePath, sub, h), headers: h };
}

interface Authorisation extends Created {
  /** The authorisation's path: <basePath>/<sub>/<authorisationId>. */
  href: string;
  method: string;
}

/** A created authorisation (a step: its POST is judged by its own requirement) and the decoupled method to start it with. */
async function created(
  payments: PaymentsClient,
  sub: Sub,
  c: Combination,
  extra: HeaderSpec = {},
): Promise<Authorisation> {
  const made = await create(payments, sub, c, extra);
  return prerequisite(CREATE_ROOT[sub], `create a ${what(sub)}`, async () => {
    expect(made.res).toSucceed();
    const body = made.res.json<{ authorisationId?: string; scaMethods?: { authenticationMethodId?: string }[] }>();
    expect(body.authorisationId, `an authorisationId; got ${made.res.describe()}`).toEqual(expect.any(String));
    const offered = (body.scaMethods ?? []).map((m) => String(m.authenticationMethodId));
    const method = DECOUPLED_PREFERENCE.find((m) => offered.includes(m));
    expect(method, `scaMethods offers mbid_same_device or mbid; got ${JSON.stringify(offered)}`).toBeTruthy();
    return { ...made, href: `${made.basePath}/${sub}/${body.authorisationId}`, method: method! };
  });
}

/** Starts a created authorisation with its decoupled method (PUT); returns the answer. */
const start = (payments: PaymentsClient, a: Authorisation) => payments.sca.start(a.href, a.method, a.headers);

/** A created authorisation, started (a step: the start is judged by payments.authorisations.start). */
async function started(payments: PaymentsClient, sub: Sub, c: Combination): Promise<Authorisation> {
  const a = await created(payments, sub, c);
  const res = await start(payments, a);
  await prerequisite('payments.authorisations.start', `start the ${what(sub)} with ${a.method}`, async () =>
    expect(res).toSucceed(),
  );
  return a;
}

/** Update PSU data: PUT on the authorisation with the empty object (section D). */
const updatePsuData = (payments: PaymentsClient, a: Pick<Authorisation, 'href' | 'headers'>) =>
  payments.api.put(a.href, { json: {}, headers: a.headers });

const scaStatusOf = (res: ApiResponse) => res.json<{ scaStatus?: unknown }>().scaStatus;

for (const sub of ['authorisations', 'cancellation-authorisations'] as const) {
  test(
    `the start-authorisation POST of a ${what(sub)} answers authorisationId, and the other listed fields with their types`,
    req('payments.authorisations.start-response'),
    withKind(sub, async (payments, c) => {
      const { res } = await create(payments, sub, c);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('authorisations/authorisation-start');
    }),
  );

  test(
    `starting a ${what(sub)} with a decoupled method answers aspsp-sca-approach and challengeData`,
    req('payments.authorisations.start'),
    withKind(sub, async (payments, c) => {
      const a = await created(payments, sub, c);
      const res = await start(payments, a);
      await expect(res).toSucceed();
      await expect(res).toHaveHeader('aspsp-sca-approach', /^(DECOUPLED|REDIRECT)$/);
      await expect(res).toMatchSchema('authorisations/authorisation-started');
    }),
  );
}

test(
  'the start-authorisation POST of a payment and of a cancellation carries scaStatus, psuMessage and the scaStatus link',
  req('payments.authorisations.start-response-complete'),
  async ({ payments, claimedPayment }) => {
    for (const [sub, c] of claimedSubs(payments, claimedPayment)) {
      const { res } = await create(payments, sub, c);
      await prerequisite('payments.authorisations.start-response', `create a ${what(sub)}`, async () =>
        expect(res).toSucceed(),
      );
      await expect
        .soft(res, because(`the start response of a ${what(sub)}`))
        .toMatchSchema('authorisations/authorisation-start-complete');
    }
  },
);

test(
  'update PSU data on a started payment authorisation answers the decoupled response with its types',
  req('payments.authorisations.update-psu-data'),
  async ({ payments, claimedPayment }) => {
    const a = await started(payments, 'authorisations', claimedPayment);
    const res = await updatePsuData(payments, a);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled');
  },
);

test(
  'update PSU data on a started cancellation authorisation answers the decoupled response with its types',
  req('payments.cancel.update-psu-data'),
  async ({ payments, authorisedCancellation }) => {
    const a = await started(payments, 'cancellation-authorisations', authorisedCancellation);
    const res = await updatePsuData(payments, a);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled');
  },
);

test(
  'update PSU data on a payment and a cancellation authorisation answers scatransactionStatus, psuMessage and the scaStatus link',
  req('payments.authorisations.update-psu-data-complete'),
  async ({ payments, claimedPayment }) => {
    for (const [sub, c] of claimedSubs(payments, claimedPayment)) {
      const a = await started(payments, sub, c);
      const res = await updatePsuData(payments, a);
      await prerequisite(
        sub === 'authorisations' ? 'payments.authorisations.update-psu-data' : 'payments.cancel.update-psu-data',
        `update PSU data on the ${what(sub)}`,
        async () => expect(res).toSucceed(),
      );
      await expect
        .soft(res, because(`update PSU data on a ${what(sub)}`))
        .toMatchSchema('authorisations/update-psu-data-decoupled-complete');
    }
  },
);

test(
  'the SCA status of a payment authorisation answers the SCA status response and moves as the SCA does',
  req('payments.authorisations.sca-status'),
  async ({ payments, claimedPayment }) => {
    const a = await created(payments, 'authorisations', claimedPayment);
    const read = async (when: string) => {
      const res = await payments.sca.status(a.href, a.headers);
      await expect(res, because(`the SCA status ${when}`)).toSucceed();
      await expect(res, because(`the SCA status ${when}`)).toMatchSchema('authorisations/sca-status');
      return scaStatusOf(res);
    };
    expect(await read('once created'), because('a new authorisation reads received (States > Authorisation)')).toBe(
      'received',
    );
    const res = await start(payments, a);
    await prerequisite('payments.authorisations.start', `start the payment authorisation with ${a.method}`, async () =>
      expect(res).toSucceed(),
    );
    expect(
      await read(`once started with ${a.method}`),
      because(`a started authorisation has left received: one of ${UNDER_WAY.join(', ')}`),
    ).toMatch(new RegExp(`^(${UNDER_WAY.join('|')})$`));
    const end = await payments.sca.pollUntilEnd(a.href, 750, a.headers);
    expect(
      end.status,
      because(`the SCA of the reference PSU ends finalised; polls: ${end.polls.map((p) => p.status).join(' → ')}`),
    ).toBe('finalised');
    expect(await read('once ended'), because('the SCA status once the SCA has ended')).toBe('finalised');
  },
);

test(
  'a failed payment authorisation stays failed on later reads',
  req('payments.authorisations.failed-stable'),
  async ({ payments, failingPsu: failing, claimedPayment }) => {
    const a = await created(payments, 'authorisations', claimedPayment, { 'PSU-ID': failing });
    const end = await prerequisite(
      'authorisations.status.failed',
      'the SCA of the failing PSU ends failed',
      async () => {
        requireSuccess(
          await start(payments, a),
          'payments.authorisations.start',
          `start the payment authorisation of the failing PSU with ${a.method}`,
        );
        const out = await payments.sca.pollUntilEnd(a.href, 500, a.headers);
        expect(out.status, `the SCA of the PSU named sca.failingPsuId ends failed`).toBe('failed');
        return out;
      },
    );
    const seen: string[] = [];
    // Reads on the polling schedule for about two seconds: a final status never moves.
    await expect
      .poll(
        async () => {
          seen.push(String(scaStatusOf(await payments.sca.status(a.href, a.headers))));
          return seen.length;
        },
        { intervals: [500], timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(4);
    expect(
      seen,
      because(
        `scaStatus after failed (${end.polls.length} polls to the end), read ${seen.length} times over about two seconds`,
      ),
    ).toEqual(seen.map(() => 'failed'));
  },
);

/** The three calls on an authorisationId never created on the payment. */
function unknownCalls(payments: PaymentsClient, a: Authorisation) {
  const href = `${a.basePath}/authorisations/${randomUUID()}`;
  return [
    ['the SCA status of an unknown authorisationId', () => payments.sca.status(href, a.headers)],
    [`a start (${a.method}) of an unknown authorisationId`, () => payments.sca.start(href, a.method, a.headers)],
    ['update PSU data of an unknown authorisationId', () => updatePsuData(payments, { href, headers: a.headers })],
  ] as const;
}

test(
  'an unknown authorisationId on a payment is refused for its SCA status, start and update PSU data, and changes nothing',
  req('payments.authorisations.unknown-id'),
  async ({ payments, claimedPayment }) => {
    const a = await created(payments, 'authorisations', claimedPayment);
    const list = async () => {
      const res = await payments.api.get(`${a.basePath}/authorisations`, { headers: a.headers });
      await prerequisite('payments.authorisations.list', 'list the payment authorisations', async () =>
        expect(res).toSucceed(),
      );
      return [...(res.json<{ authorisationIds?: string[] }>().authorisationIds ?? [])].sort();
    };
    const before = await list();
    for (const [call, send] of unknownCalls(payments, a)) await expect.soft(await send(), because(call)).toBeRefused();
    expect(
      await list(),
      because('the authorisation list after the refused calls is the list before them: no authorisation was made'),
    ).toEqual(before);
    expect(
      scaStatusOf(await payments.sca.status(a.href, a.headers)),
      because('the authorisation created is still received after the refused calls'),
    ).toBe('received');
  },
);

test(
  'an unknown authorisationId on a payment is answered 403 or 404 RESOURCE_UNKNOWN',
  req('payments.authorisations.unknown-id-code'),
  async ({ payments, claimedPayment }) => {
    const a = await created(payments, 'authorisations', claimedPayment);
    for (const [call, send] of unknownCalls(payments, a))
      await expect.soft(await send(), because(call)).toBeTppError([403, 404], 'RESOURCE_UNKNOWN');
  },
);
