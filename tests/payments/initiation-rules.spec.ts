import { prerequisite } from '../../harness/http/broken.js';
import type { ApiResponse } from '../../harness/http/response.js';
import type { Json } from '../../harness/values/json.js';
import {
  because,
  COMBINATIONS,
  expect,
  label,
  req,
  test,
  unclaimed,
  type Combination,
  type PaymentsClient,
} from '../../harness/areas/payments.js';

// Rules of payment initiation and of a payment's start authorisation that the other payment files
// leave out: the payment-service list, creditorAgent as a BICFI, creditorAddress as an address, and
// psuData (the object must be non-empty; required where the profile follows the operations table).

/** The first combination the profile claims, or the test is skipped as not claimed. */
function claimed(payments: PaymentsClient, filter: (c: Combination) => boolean = () => true): Combination {
  const c = COMBINATIONS.find((x) => filter(x) && !unclaimed(payments.target, x));
  test.skip(
    !c,
    `not claimed: the profile "${payments.target.profileName}" claims no fitting payment service and product`,
  );
  return c!;
}

/** The object of a payment body that holds the creditor (the first payment of a bulk). */
const creditorOf = (body: Json): Json => (Array.isArray(body.payments) ? (body.payments[0] as Json) : body);

/** A payment service the specification does not list (section D). */
const UNKNOWN_SERVICE = 'instant-payments';

/** Values of creditorAgent that are no BICFI (Common request headers: the BIC pattern). */
const NOT_BICS = ['NOT A BIC', 'cobadeffxxx', 'COBADEFF1', 'COBADE', '12BADEFFXXX'];

/** A full address: the five fields of the creditorAddress row. */
const ADDRESS = {
  street: 'Victoria Street',
  buildingNumber: '12',
  city: 'London',
  postalCode: 'SW1H 0ET',
  country: 'GB',
};

/** Initiates at a payment-service the specification does not list, with a valid body of a claimed product. */
async function initiateUnknownService(payments: PaymentsClient): Promise<{ res: ApiResponse; c: Combination }> {
  const c = claimed(payments, (x) => x.service === 'payments');
  const root = payments.path(c).slice(0, -`/${c.service}/${c.product}`.length);
  const res = await payments.api.post(`${root}/${UNKNOWN_SERVICE}/${c.product}`, {
    json: payments.body(c),
    headers: { ...payments.psuHeaders(), ...payments.productHeaders(c) },
  });
  // A target that takes it anyway made a payment: cancel it as the single payment it must be.
  const id = res.status >= 200 && res.status < 300 ? (res.body as { paymentId?: string })?.paymentId : undefined;
  if (id) payments.created.push(payments.basePath(c, id));
  return { res, c };
}

for (const [id, title, judge] of [
  [
    'payments.service.unknown',
    'is refused, and no payment is created',
    (res: ApiResponse, what: string) => expect(res, because(what)).toBeRefused(),
  ],
  [
    'payments.service.unknown-code',
    'is answered 404 RESOURCE_UNKNOWN',
    (res: ApiResponse, what: string) => expect(res, because(what)).toBeTppError(404, 'RESOURCE_UNKNOWN'),
  ],
] as const) {
  test(`initiate payment under a payment-service outside the list ${title}`, req(id), async ({ payments }) => {
    const { res, c } = await initiateUnknownService(payments);
    await judge(res, `initiate a ${c.product} payment under payment-service "${UNKNOWN_SERVICE}"`);
  });
}

for (const [id, title, status] of [
  ['payments.initiate.creditor-agent-bicfi', 'is refused, and no payment is created', undefined],
  ['payments.initiate.creditor-agent-bicfi-code', 'is answered 400 FORMAT_ERROR', 400],
] as const) {
  test(`a payment whose creditorAgent is no BICFI ${title}`, req(id), async ({ payments }) => {
    const c = claimed(payments);
    for (const bad of NOT_BICS) {
      const body = structuredClone(payments.body(c));
      creditorOf(body).creditorAgent = bad;
      const res = await payments.initiate(c, { body });
      const what = `initiate a ${label(c)} payment with creditorAgent ${JSON.stringify(bad)}`;
      if (status === undefined) await expect.soft(res, because(what)).toBeRefused();
      else await expect.soft(res, because(what)).toBeTppError(status, 'FORMAT_ERROR');
    }
  });
}

test(
  'a single payment with a full creditorAddress is accepted on every claimed product, and read back as the address sent',
  req('payments.initiate.creditor-address'),
  async ({ payments }) => {
    // The row belongs to the single payment's body, on every product: not only where the default body carries one.
    const claimedSingles = COMBINATIONS.filter((x) => x.service === 'payments' && !unclaimed(payments.target, x));
    test.skip(
      claimedSingles.length === 0,
      `not claimed: the profile "${payments.target.profileName}" claims no single payment product`,
    );
    for (const c of claimedSingles) {
      const body = { ...(payments.body(c) as Record<string, Json>), creditorAddress: { ...ADDRESS } } as Json;
      const res = await payments.initiate(c, { body });
      const what = `initiate a ${label(c)} payment with creditorAddress ${JSON.stringify(ADDRESS)}`;
      await expect.soft(res, because(what)).toSucceed();
      const paymentId =
        res.status >= 200 && res.status < 300 ? res.json<{ paymentId?: string }>().paymentId : undefined;
      expect
        .soft(paymentId, because(`the accepted ${label(c)} payment has a paymentId; got ${res.describe()}`))
        .toBeTruthy();
      if (!paymentId) continue;
      const read = await payments.read(payments.basePath(c, paymentId));
      // Reading a payment at all is payments.read.fields' rule: here, what the read says of the address.
      await prerequisite('payments.read.fields', `read the ${label(c)} payment`, async () => expect(read).toSucceed());
      // "The read-payment response returns the submitted fields": the address comes back as sent.
      const address = read.json<{ creditorAddress?: unknown }>().creditorAddress;
      expect
        .soft(
          address !== null && typeof address === 'object' && !Array.isArray(address),
          because(
            `$.creditorAddress of the read ${label(c)} payment is the address object sent; got ${JSON.stringify(address)}`,
          ),
        )
        .toBe(true);
      if (address === null || typeof address !== 'object') continue;
      for (const [field, sent] of Object.entries(ADDRESS)) {
        expect
          .soft(
            (address as Record<string, unknown>)[field],
            because(`$.creditorAddress.${field} of the read ${label(c)} payment, read back as sent`),
          )
          .toBe(sent);
      }
    }
  },
);

/** A new payment's start-authorisation POST with `body` (undefined: none), as the operations table shows it. */
async function startWith(
  payments: PaymentsClient,
  body: Json | undefined,
): Promise<{ res: ApiResponse; c: Combination }> {
  const c = claimed(payments);
  const { basePath } = await payments.initiated(c);
  const res = await payments.api.post(`${basePath}/authorisations`, {
    ...(body === undefined ? {} : { json: body }),
    headers: { ...payments.psuHeaders(), 'TPP-Redirect-Preferred': 'false' },
  });
  return { res, c };
}

for (const [id, title, status] of [
  ['payments.authorisations.psu-data-empty', 'is refused', undefined],
  ['payments.authorisations.psu-data-empty-code', 'is answered 400', 400],
] as const) {
  test(`start authorisation of a payment with an empty psuData ${title}`, req(id), async ({ payments }) => {
    const { res, c } = await startWith(payments, { psuData: {} });
    await expect(res, because(`start the authorisation of a ${label(c)} payment with psuData {}`)).toBeRefused(status);
  });
}

for (const [id, title, status] of [
  ['payments.authorisations.psu-data-required', 'is refused', undefined],
  ['payments.authorisations.psu-data-required-code', 'is answered 400', 400],
] as const) {
  test(
    `where the profile follows the operations table, start authorisation of a payment without psuData ${title}`,
    req(id),
    async ({ payments }) => {
      // The feature payments.psu-data-required claims the check; the option says which body the target takes.
      test.skip(
        payments.profile.payments?.startAuthorisationBody !== 'operations-table',
        'the profile claims payments.psu-data-required without payments.startAuthorisationBody operations-table',
      );
      for (const [what, body] of [
        ['no body', undefined],
        ['a body without psuData', {}],
      ] as const) {
        const { res, c } = await startWith(payments, body);
        await expect
          .soft(res, because(`start the authorisation of a ${label(c)} payment with ${what}`))
          .toBeRefused(status);
      }
    },
  );
}
