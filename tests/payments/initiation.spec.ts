import { isoDate } from '../../harness/values/dates.js';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { differences, withPath } from '../../harness/values/json.js';
import {
  because,
  creditorPrefix,
  expect,
  forEachCombination,
  label,
  req,
  requiredFields,
  test,
} from '../../harness/areas/payments.js';

const SPEC_REQUIRED = ['debtorAccount', 'instructedAmount', 'creditorAccount', 'creditorName'];

forEachCombination((c) => {
  test(
    'a valid initiation answers a success with a paymentId, and RCVD when it gives transactionStatus',
    req('payments.initiate.response'),
    async ({ payments, combination }) => {
      const res = await payments.initiate(combination);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('payments/payment-initiated');
      const status = res.json<{ transactionStatus?: string }>().transactionStatus;
      // transactionStatus is listed, not required (payments.initiate.complete): when given, a new payment is RCVD.
      if (status !== undefined)
        expect(status, because(`a new ${label(combination)} payment is RCVD (States > Payment)`)).toBe('RCVD');
    },
  );

  test(
    'a valid initiation answers every listed field: transactionStatus, paymentId and the self, status and scaStatus links',
    req('payments.initiate.complete'),
    async ({ payments, combination }) => {
      const { res } = await payments.initiated(combination);
      await expect(res).toMatchSchema('payments/payment-initiated-complete');
    },
  );

  test(
    'a valid initiation is answered 201',
    req('payments.initiate.response-code'),
    async ({ payments, combination }) => {
      await expect(await payments.initiate(combination)).toHaveStatus(201);
    },
  );

  test(
    'a successful initiation carries Location and ASPSP-SCA-Approach',
    req('payments.initiate.headers'),
    async ({ payments, combination }) => {
      const res = await payments.initiate(combination);
      // The headers are judged on any 2xx (the exact code is payments.initiate.response-code's); an
      // initiation refused blocks them, judged by payments.initiate.response.
      requireSuccess(res, 'payments.initiate.response', `initiate a ${label(combination)} payment`);
      await expect(res).toHaveHeader('Location');
      await expect(res).toHaveHeader('ASPSP-SCA-Approach', /^(EMBEDDED|DECOUPLED|REDIRECT)$/);
    },
  );

  // The specification marks the single payment's fields required; bulk and periodic bodies (and the
  // giro creditor) rest on the reference facts.
  const bySpec = (field: string) => c.service === 'payments' && SPEC_REQUIRED.includes(field);
  for (const [id, ours] of [
    ['payments.initiate.required-fields', true],
    ['payments.initiate.required-fields-bulk-periodic', false],
  ] as const) {
    if (ours && c.service !== 'payments') continue;
    if (!ours && c.service === 'payments' && c.product !== 'swedish-giro') continue;
    test(
      ours
        ? 'a single payment missing a field the specification marks required is refused'
        : 'a body missing a field the reference facts mark required is refused',
      req(id),
      async ({ payments, combination }) => {
        const body = payments.body(combination);
        for (const field of requiredFields(combination, payments.profile).filter((f) => bySpec(f) === ours)) {
          await test.step(`without ${field}`, async () => {
            const res = await payments.initiate(combination, { body: withPath(body, field, undefined) });
            await expect.soft(res, `initiate ${label(combination)} without the required ${field}`).toBeRefused();
          });
        }
      },
    );
  }

  test(
    'a missing required field is answered FORMAT_ERROR with its path',
    req('payments.initiate.required-fields-path'),
    async ({ payments, combination }) => {
      const body = payments.body(combination);
      for (const field of requiredFields(combination, payments.profile)) {
        await test.step(`without ${field}`, async () => {
          const res = await payments.initiate(combination, { body: withPath(body, field, undefined) });
          await expect.soft(res).toBeTppError(400, 'FORMAT_ERROR', { path: field });
        });
      }
    },
  );

  test(
    'read returns the submitted fields unchanged',
    req('payments.read.fields'),
    async ({ payments, combination }) => {
      const { basePath, body } = await payments.initiated(combination);
      const read = await payments.read(basePath);
      await expect(read).toSucceed();
      await expect(read).toMatchSchema('payments/payment');
      expect(
        differences(body, read.json()),
        because(`every submitted field of the ${label(combination)} payment read back unchanged`),
      ).toEqual([]);
    },
  );

  test(
    'read answers its transactionStatus beside the submitted fields',
    req('payments.read.complete'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const read = await payments.read(basePath);
      await prerequisite('payments.read.fields', 'read the payment', async () => expect(read).toSucceed());
      await expect(read).toMatchSchema('payments/payment-complete');
    },
  );

  test(
    'payment status answers the transactionStatus',
    req('payments.status.response'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.status(basePath);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('payments/payment-status');
      // The payment's status, whatever its value: moves other than those of the state table are not
      // shown, so a payment not yet authorised is not pinned to RCVD. Where read payment gives the
      // payment's transactionStatus, the status answer agrees with it (read between two status reads,
      // so a move in between is not taken for a disagreement).
      const read = await payments.read(basePath);
      const after = await payments.status(basePath);
      const statusOf = (r: typeof res) => (r.body as { transactionStatus?: unknown } | undefined)?.transactionStatus;
      const held = read.status >= 200 && read.status < 300 ? statusOf(read) : undefined;
      if (typeof held === 'string')
        expect(
          [statusOf(res), statusOf(after)],
          because(`payment status answers the transactionStatus read payment gives (${held})`),
        ).toContain(held);
    },
  );

  test(
    'payment status answers a transactionStatus of the ISO 20022 code list',
    req('payments.status.values'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.status(basePath);
      await prerequisite('payments.status.response', 'read the payment status', async () => expect(res).toSucceed());
      await expect(res).toMatchSchema('payments/payment-status-values');
    },
  );

  test(
    'malformed amounts and currencies are rejected with 400',
    req('payments.amount.format'),
    async ({ payments, combination }) => {
      const body = payments.body(combination);
      const at = `${creditorPrefix(combination)}instructedAmount`;
      for (const [field, bad] of [
        ['amount', '12,50'],
        ['amount', '1.2345'],
        ['amount', '123456789012345'],
        ['amount', 12.5],
        ['currency', 'eur'],
        ['currency', 'EURO'],
      ] as const) {
        await test.step(`${at}.${field} ${JSON.stringify(bad)}`, async () => {
          const res = await payments.initiate(combination, { body: withPath(body, `${at}.${field}`, bad) });
          await expect.soft(res, `${at}.${field} ${JSON.stringify(bad)} is not a valid value`).toBeRefused(400);
        });
      }
    },
  );

  if (c.service !== 'periodic-payments') {
    for (const status of [undefined, 400] as const) {
      test(
        `a requestedExecutionDate that is not an ISO date is ${status ? `answered ${status}` : 'refused'}`,
        req(status ? 'payments.execution-date.format-code' : 'payments.execution-date.format'),
        async ({ payments, combination }) => {
          for (const bad of ['21.11.2030', '2030-13-01', '2030/01/15']) {
            const res = await payments.initiate(combination, {
              body: { ...payments.body(combination), requestedExecutionDate: bad },
            });
            await expect.soft(res, `requestedExecutionDate "${bad}" is not an ISO date`).toBeRefused(status);
          }
        },
      );
    }

    test(
      'a requestedExecutionDate in the past is rejected with EXECUTION_DATE_INVALID',
      req('payments.execution-date.past'),
      async ({ payments, combination }) => {
        const res = await payments.initiate(combination, {
          body: { ...payments.body(combination), requestedExecutionDate: isoDate(-3) },
        });
        await expect(res).toBeTppError(400, 'EXECUTION_DATE_INVALID');
      },
    );
  }
});

test('an unknown payment product is not accepted', req('payments.product.unknown'), async ({ payments }) => {
  const c = { service: 'payments', product: 'sepa-credit-transfers' } as const;
  const res = await payments.api.post(
    `${payments.path(c).replace(/sepa-credit-transfers$/, 'instant-moon-transfers')}`,
    { json: payments.body(c), headers: payments.psuHeaders() },
  );
  // The class and no data: the exact code and a tppMessages body are payments.product.unknown-code (a SHOULD).
  await expect(res, because('initiate a payment of the unknown product instant-moon-transfers')).toBeRefused();
});

test(
  'an unknown payment product is answered 404 PRODUCT_UNKNOWN',
  req('payments.product.unknown-code'),
  async ({ payments }) => {
    const c = { service: 'payments', product: 'sepa-credit-transfers' } as const;
    const res = await payments.api.post(
      `${payments.path(c).replace(/sepa-credit-transfers$/, 'instant-moon-transfers')}`,
      { json: payments.body(c), headers: payments.psuHeaders() },
    );
    if (res.status === 404) await expect(res).toBeTppError(404, 'PRODUCT_UNKNOWN');
    else await expect(res).toBeTppError([400, 403], 'PRODUCT_INVALID');
  },
);

test(
  'reading an unknown paymentId is answered RESOURCE_UNKNOWN',
  req('payments.read.unknown'),
  async ({ payments }) => {
    const c = { service: 'payments', product: 'sepa-credit-transfers' } as const;
    const res = await payments.read(payments.basePath(c, '0b5e7b2c-1f0e-4d7b-9a55-3f1f0c2d9e11'));
    await expect(res).toBeTppError([403, 404], 'RESOURCE_UNKNOWN');
  },
);
