import { createHash } from 'node:crypto';
import { expect, req, test } from '../../harness/areas/directory.js';
import { requireSuccess } from '../../harness/http/broken.js';
import type { ApiClient } from '../../harness/http/client.js';
import type { SignOptions } from '../../harness/http/signing.js';

// Application-level signing headers (Authentication 6; Common request headers), shown on List banks.
// The signed cases carry real signatures of the TPP's signing identity (TPP_SIGNING_KEY_FILE), so
// that the only thing wrong with a call is what the Digest row says; and each refusal is judged
// beside the same call made valid, of the same kind (signed where the refused call is signed),
// accepted in the same test: a bank that refuses every signed call, or every call, is not seen
// refusing what the Digest row forbids, and the check is blocked by the valid call's requirement.

/** A Digest of the empty body in a form other than SHA-256=<base64>: its MD5. */
const MD5_DIGEST = `MD5=${createHash('md5').update('').digest('base64')}`;

const NO_IDENTITY =
  'not judged: no signing identity (TPP_SIGNING_KEY_FILE), so no signed call can be made valid: a refusal of a signed call would prove nothing beside it';

/** List banks, signed as `sign` says, with `headers`. */
function listBanks(api: ApiClient, o: { sign?: SignOptions | boolean; headers?: Record<string, string> }) {
  return api.get(api.target.profile.paths.aspsps!, o);
}

/** The positive controls, in the test: List banks signed correctly, and unsigned, both accepted. */
async function validCalls(api: ApiClient, unsigned: boolean) {
  requireSuccess(
    await listBanks(api, { sign: true }),
    'headers.signing.signed-accepted',
    'List banks signed correctly (the valid call the signed refusals are judged beside)',
  );
  if (unsigned)
    requireSuccess(
      await listBanks(api, { sign: false }),
      'directory.aspsps.list-shape',
      'List banks unsigned (the valid call the unsigned refusal is judged beside)',
    );
}

test(
  'Signature without Digest and Signature without a certificate are rejected',
  req('headers.digest.with-signature'),
  async ({ directory }) => {
    const api = directory.api;
    test.skip(api.target.signing === undefined, NO_IDENTITY);
    // Digest without Signature is not judged: "present if and only if Signature is present" tells the
    // TPP when to send it; a bank may ignore a Digest no signature covers.
    await validCalls(api, false);
    const cases: [string, () => ReturnType<ApiClient['get']>][] = [
      [
        'a call signed correctly, but without Digest (the headers list omits digest)',
        () => listBanks(api, { sign: { without: ['Digest'] } }),
      ],
      [
        'a call signed correctly, but without TPP-Signature-Certificate',
        () => listBanks(api, { sign: { without: ['TPP-Signature-Certificate'] } }),
      ],
    ];
    for (const [what, call] of cases) {
      await expect.soft(await call(), what).toBeRefused();
    }
  },
);

/** Signature headers correct in all but one part of the form Authentication 6 gives. */
const SIGNATURE_FORMS: [string, (h: string) => string][] = [
  [
    'algorithm "hmac-sha256" instead of rsa-sha256',
    (h) => h.replace('algorithm="rsa-sha256"', 'algorithm="hmac-sha256"'),
  ],
  ['no keyId', (h) => h.replace(/keyId="[^"]*",?/, '')],
  ['no headers list', (h) => h.replace(/headers="[^"]*",?/, '')],
  ['a signature that is not base64', (h) => h.replace(/signature="[^"]*"/, 'signature="not base64!"')],
];

test(
  'a Signature not of the form rsa-sha256, keyId, headers list and base64 signature is rejected',
  req('headers.signing.signature-form'),
  async ({ directory }) => {
    const api = directory.api;
    test.skip(api.target.signing === undefined, NO_IDENTITY);
    await validCalls(api, false);
    for (const [what, edit] of SIGNATURE_FORMS) {
      const res = await listBanks(api, { sign: { signature: edit } });
      await expect.soft(res, `a call signed correctly but with ${what}`).toBeRefused();
    }
  },
);

test('a Digest that is not SHA-256=<base64> is rejected', req('headers.digest.format'), async ({ directory }) => {
  const api = directory.api;
  test.skip(api.target.signing === undefined, NO_IDENTITY);
  await validCalls(api, false);
  // A call signed correctly over a Digest that is the MD5 of its body, right in every way but the form the row gives.
  const res = await listBanks(api, { sign: { digest: MD5_DIGEST } });
  await expect(res, `Digest "${MD5_DIGEST}"`).toBeRefused();
});
