import { dependsOnControl } from '../../../harness/expect.js';
import { NOT_ISO_DATES, type BrokenDirectDebit } from '../../../harness/properties/direct-debit-cases.js';
import { directDebitRefused, req, test } from '../../../harness/properties/direct-debit.js';
import { judgeRows } from '../../../harness/properties/table.js';

// A table: a direct debit body whose requestedExecutionDate or mandate's dateOfSignature is no ISO
// date, each of a fixed list in each of the two fields, sent once (not drawn), over the creditor's
// own body; each is refused (a 4xx) and creates nothing, beside the creditor's valid body accepted
// in the same test before the first row.

const ROWS: BrokenDirectDebit[] = ['requestedExecutionDate', 'mandateRelatedInformation.dateOfSignature'].flatMap(
  (path) => NOT_ISO_DATES.map((value) => ({ seed: 1, path, value })),
);

test(
  'table: direct debit bodies with a date that is no ISO date are refused',
  req('direct-debit.create.dates-iso'),
  async ({ directDebit, depth }) => {
    void depth;
    dependsOnControl('direct-debit.create.response');
    await judgeRows(
      'direct debit bodies with a date that is no ISO date',
      ROWS,
      (b) => `${b.path} = ${JSON.stringify(b.value)}`,
      directDebitRefused(directDebit),
    );
  },
);
