import { answerTests, expect, test } from '../../harness/operations.js';

// A signed call (Authentication 6: Digest, Signature, TPP-Signature-Certificate of the TPP's
// signing identity) is accepted on every claimed operation, as the same call unsigned is: "Every
// operation accepts the headers of the group it needs (signature headers, …)".

for (const t of answerTests({
  requirement: 'headers.signing.signed-accepted',
  title: 'accepts a correctly signed call',
  applies: (o) => o.accepts.includes('signature'),
  call: () => ({ sign: true }),
  // An operation that fails unsigned too is its own failure, not the signature's.
  controlled: true,
  check: async (res, b) => {
    await expect.soft(res, `${b.label}, signed`).toSucceed();
  },
}))
  test(t.title, t.details, t.body);
