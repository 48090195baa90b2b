import { createHash } from 'node:crypto';
import { expect, req, test } from '../../harness/areas/directory.js';
import type { ApiClient } from '../../harness/http/client.js';
import { digestOf, type SignOptions } from '../../harness/http/signing.js';

// Application-level signing headers (Authentication 6; Common request headers), shown on List banks.
// With a signing identity (TPP_SIGNING_KEY_FILE) the signed cases carry real signatures of it, so
// that the only thing wrong with a call is what the Digest row says: a bank refusing it for its
// signature or certificate would otherwise pass without reading the Digest at all. Without one they
// fall back to fixed, unverifiable values, and say so.
const FAKE_SIGNATURE =
  'keyId="SN=1,CA=CN=obg-conformance",algorithm="rsa-sha256",headers="digest x-request-id",signature="c2lnbmF0dXJl"';
const FAKE_CERTIFICATE = Buffer.from('not a real certificate: presence is what is judged here').toString('base64');

/** A Digest of the empty body in a form other than SHA-256=<base64>: its MD5. */
const MD5_DIGEST = `MD5=${createHash('md5').update('').digest('base64')}`;

/** List banks, signed (real signature) as `sign` says, or unsigned with `headers` when there is no identity. */
function listBanks(api: ApiClient, o: { sign?: SignOptions; headers?: Record<string, string> }) {
  return api.get(api.target.profile.paths.aspsps!, o);
}

test(
  'Signature without Digest, Signature without a certificate, and Digest without Signature are rejected',
  req('headers.digest.with-signature'),
  async ({ directory }) => {
    const api = directory.api;
    const real = api.target.signing !== undefined;
    if (!real)
      test.info().annotations.push({
        type: 'note',
        description:
          'no signing identity (TPP_SIGNING_KEY_FILE): the signed cases send a fixed signature and certificate the bank cannot verify',
      });
    const cases: [string, () => ReturnType<ApiClient['get']>][] = [
      [
        real
          ? 'a call signed correctly, but without Digest (the headers list omits digest)'
          : 'Signature without Digest',
        () =>
          real
            ? listBanks(api, { sign: { without: ['Digest'] } })
            : listBanks(api, { headers: { Signature: FAKE_SIGNATURE, 'TPP-Signature-Certificate': FAKE_CERTIFICATE } }),
      ],
      [
        real
          ? 'a call signed correctly, but without TPP-Signature-Certificate'
          : 'Signature without TPP-Signature-Certificate',
        () =>
          real
            ? listBanks(api, { sign: { without: ['TPP-Signature-Certificate'] } })
            : listBanks(api, { headers: { Signature: FAKE_SIGNATURE, Digest: digestOf('') } }),
      ],
      // An unsigned call with the correct Digest of its (empty) body.
      [
        'an unsigned call with Digest (the digest of its empty body)',
        () => listBanks(api, { headers: { Digest: digestOf('') } }),
      ],
    ];
    for (const [what, call] of cases) {
      await expect.soft(await call(), what).toBeRefused();
    }
  },
);

test('a Digest that is not SHA-256=<base64> is rejected', req('headers.digest.format'), async ({ directory }) => {
  const api = directory.api;
  // With an identity: a call signed correctly over a Digest that is the MD5 of its body, right in
  // every way but the form the row gives.
  const res = api.target.signing
    ? await listBanks(api, { sign: { digest: MD5_DIGEST } })
    : await listBanks(api, {
        headers: { Digest: 'MD5=abc', Signature: FAKE_SIGNATURE, 'TPP-Signature-Certificate': FAKE_CERTIFICATE },
      });
  await expect(res, `Digest "${api.target.signing ? MD5_DIGEST : 'MD5=abc'}"`).toBeRefused();
});
