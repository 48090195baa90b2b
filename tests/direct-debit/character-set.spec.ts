import { requireSuccess } from '../../harness/http/broken.js';
import { getPath, withPath, type Json } from '../../harness/values/json.js';
import { text } from '../../harness/values/text.js';
import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

// General rules: "Text fields must support at least these characters". The text fields of a direct
// debit, each filled to its length (so that together they carry every character of the set); the
// identifiers (IBANs, BICs, creditorId, mandateId) and dates have formats of their own.
const TEXT_FIELDS: { path: string; length: number }[] = [
  { path: 'creditorName', length: 70 },
  { path: 'creditorAgentName', length: 70 },
  { path: 'debtorName', length: 70 },
  { path: 'debtorAgentName', length: 70 },
  { path: 'creditorAddress.street', length: 70 },
  { path: 'creditorAddress.city', length: 35 },
  { path: 'remittanceInformationUnstructuredArray[0]', length: 140 },
];

test(
  "every text field of a direct debit accepts the specification's character set and reads it back byte for byte",
  req('direct-debit.text.character-set'),
  async ({ directDebit }) => {
    let body = directDebit.body() as Json;
    for (const f of TEXT_FIELDS) body = withPath(body, f.path, text(f.length));
    const res = await directDebit.create(body);
    await expect(res, 'create a direct debit whose text fields carry the character set').toSucceed();
    const paymentId = res.json<{ paymentId?: string }>().paymentId;
    expect(paymentId, because(`create answers a paymentId; got ${res.describe()}`)).toBeTruthy();
    const read = requireSuccess(await directDebit.get(paymentId!), 'direct-debit.get.fields', 'read the direct debit');
    for (const f of TEXT_FIELDS) {
      const sent = getPath(body, f.path);
      expect
        .soft(
          getPath(read.json(), f.path),
          because(`$.${f.path} read back byte for byte (sent ${JSON.stringify(sent)})`),
        )
        .toBe(sent);
    }
  },
);
