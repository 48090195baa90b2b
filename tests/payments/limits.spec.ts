import {
  COMBINATIONS,
  because,
  expect,
  getPath,
  label,
  limitedFields,
  plainText,
  req,
  test,
  text,
  withPath,
} from '../../harness/areas/payments.js';

const TEXT_FIELDS = (c: (typeof COMBINATIONS)[number]) => limitedFields(c);

for (const c of COMBINATIONS) {
  const name = label(c);
  for (const f of limitedFields(c)) {
    test(
      `${name}: ${f.path} is accepted and read back at ${f.max} characters, rejected at ${f.max + 1}`,
      req(f.requirement),
      async ({ payments }) => {
        payments.claim(c);
        const value = plainText(f.max);
        await test.step(`${f.max} characters: accepted and read back`, async () => {
          const res = await payments.initiate(c, { body: withPath(payments.body(c), f.path, value) });
          await expect(res).toHaveStatus(201);
          const read = await payments.read(payments.basePath(c, res.json().paymentId));
          await expect(read).toHaveStatus(200);
          expect(getPath(read.json(), f.path), because(`${f.path} of ${f.max} characters read back as sent`)).toBe(
            value,
          );
        });
        await test.step(`${f.max + 1} characters: rejected`, async () => {
          await expect(
            await payments.initiate(c, { body: withPath(payments.body(c), f.path, plainText(f.max + 1)) }),
          ).toBeTppError(400);
        });
      },
    );
  }

  test(
    `${name}: every text field accepts the specification's character set and reads it back byte for byte`,
    req('payments.text.character-set'),
    async ({ payments }) => {
      payments.claim(c);
      let body = payments.body(c);
      const fields = TEXT_FIELDS(c);
      for (const f of fields) body = withPath(body, f.path, text(f.max));
      const res = await payments.initiate(c, { body });
      await expect(res).toHaveStatus(201);
      const read = (await payments.read(payments.basePath(c, res.json().paymentId))).json();
      for (const f of fields) {
        const sent = getPath(body, f.path) as string;
        const got = getPath(read, f.path);
        expect.soft(got, because(`${f.path} read back byte for byte (sent ${JSON.stringify(sent)})`)).toBe(sent);
      }
    },
  );
}
