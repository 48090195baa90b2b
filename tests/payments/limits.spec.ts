import { requireSuccess } from '../../harness/http/broken.js';
import { getPath, withPath } from '../../harness/values/json.js';
import { plainText, text } from '../../harness/values/text.js';
import { because, expect, forEachCombination, limitedFields, req, test } from '../../harness/areas/payments.js';

/** The SHOULD of each length limit's status code, beside the limit (each id written out). */
const CODE_OF: Record<string, string> = {
  'payments.limits.end-to-end-identification': 'payments.limits.end-to-end-identification-code',
  'payments.limits.creditor-name': 'payments.limits.creditor-name-code',
  'payments.limits.creditor-agent-name': 'payments.limits.creditor-agent-name-code',
  'payments.limits.remittance-information': 'payments.limits.remittance-information-code',
  'payments.limits.debtor-account-message': 'payments.limits.debtor-account-message-code',
};
const codeOf = (requirement: string): string => {
  const id = CODE_OF[requirement];
  if (!id) throw new Error(`tests/payments/limits.spec.ts: no "-code" requirement written out for ${requirement}`);
  return id;
};

forEachCombination((c) => {
  for (const f of limitedFields(c)) {
    test(
      `${f.path} is accepted and read back at ${f.max} characters, rejected at ${f.max + 1}`,
      req(f.requirement),
      async ({ payments, combination }) => {
        const value = plainText(f.max);
        await test.step(`${f.max} characters: accepted and read back`, async () => {
          const res = await payments.initiate(combination, {
            body: withPath(payments.body(combination), f.path, value),
          });
          await expect(res).toSucceed();
          const read = await payments.read(payments.basePath(combination, res.json().paymentId));
          requireSuccess(read, 'payments.read.fields', 'read the payment');
          expect(getPath(read.json(), f.path), because(`${f.path} of ${f.max} characters read back as sent`)).toBe(
            value,
          );
        });
        await test.step(`${f.max + 1} characters: refused`, async () => {
          await expect(
            await payments.initiate(combination, {
              body: withPath(payments.body(combination), f.path, plainText(f.max + 1)),
            }),
          ).toBeRefused();
        });
      },
    );

    test(
      `${f.path} of ${f.max + 1} characters is answered 400`,
      req(codeOf(f.requirement)),
      async ({ payments, combination }) => {
        await expect(
          await payments.initiate(combination, {
            body: withPath(payments.body(combination), f.path, plainText(f.max + 1)),
          }),
        ).toBeRefused(400);
      },
    );
  }

  test(
    "every text field accepts the specification's character set and reads it back byte for byte",
    req('payments.text.character-set'),
    async ({ payments, combination }) => {
      let body = payments.body(combination);
      const fields = limitedFields(combination);
      for (const f of fields) body = withPath(body, f.path, text(f.max));
      const res = await payments.initiate(combination, { body });
      await expect(res).toSucceed();
      const read = requireSuccess(
        await payments.read(payments.basePath(combination, res.json().paymentId)),
        'payments.read.fields',
        'read the payment',
      ).json();
      for (const f of fields) {
        const sent = getPath(body, f.path) as string;
        const got = getPath(read, f.path);
        expect.soft(got, because(`${f.path} read back byte for byte (sent ${JSON.stringify(sent)})`)).toBe(sent);
      }
    },
  );
});
