import {
  everyEmptyCase,
  everyUnknownPaymentCase,
  type BrokenBasket,
} from '../../../harness/properties/signing-baskets-cases.js';
import { basketRefused, req, test } from '../../../harness/properties/signing-baskets.js';
import { judgeRows } from '../../../harness/properties/table.js';

// Tables: create-basket bodies that break one rule, a space small enough to name, each row sent
// once (not drawn): paymentIds left out or empty; an unknown payment at each position among none to
// two new payments. Each is refused and creates nothing, beside a valid basket of one new payment
// accepted in the same test before the first row. Asking for basketPayment skips them, before their
// body, without a claimed payment to fill a basket with.

const describeRow = (b: BrokenBasket) =>
  `${b.broken}${b.at === undefined ? '' : ` at paymentIds[${b.at}] among ${b.payments} new payment(s)`}`;

for (const [requirement, title, rows, status] of [
  ['signing-baskets.create.empty', 'without payments are refused', everyEmptyCase(), undefined],
  [
    'signing-baskets.create.unknown-payment',
    'naming an unknown payment among known ones are rejected with 400',
    everyUnknownPaymentCase(),
    400,
  ],
] as const) {
  test(`table: create-basket bodies ${title}`, req(requirement), async ({ baskets, basketPayment: _, depth }) => {
    void depth;
    await judgeRows(`create-basket bodies ${title}`, rows, describeRow, basketRefused(baskets, status));
  });
}
