import { createHash } from 'node:crypto';
import { expect, req, test } from '../../harness/areas/directory.js';

// Application-level signing headers (Authentication 6; Common request headers), shown on List banks.
const digestOf = (body: string) => `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
const SIGNATURE =
  'keyId="SN=1,CA=CN=obg-conformance",algorithm="rsa-sha256",headers="digest x-request-id",signature="c2lnbmF0dXJl"';
const CERTIFICATE = Buffer.from('not a real certificate: presence is what is judged here').toString('base64');

test(
  'Signature without Digest, Signature without a certificate, and Digest without Signature are rejected',
  req('headers.digest.with-signature'),
  async ({ directory }) => {
    const path = directory.api.target.profile.paths.aspsps!;
    const cases: [string, Record<string, string>][] = [
      ['Signature without Digest', { Signature: SIGNATURE, 'TPP-Signature-Certificate': CERTIFICATE }],
      ['Signature without TPP-Signature-Certificate', { Signature: SIGNATURE, Digest: digestOf('') }],
      ['Digest without Signature', { Digest: digestOf('') }],
    ];
    for (const [what, headers] of cases) {
      const res = await directory.api.get(path, { headers });
      await expect(res, what).toBeRefused();
    }
  },
);

test('a Digest that is not SHA-256=<base64> is rejected', req('headers.digest.format'), async ({ directory }) => {
  const res = await directory.api.get(directory.api.target.profile.paths.aspsps!, {
    headers: { Digest: 'MD5=abc', Signature: SIGNATURE, 'TPP-Signature-Certificate': CERTIFICATE },
  });
  await expect(res, 'Digest "MD5=abc"').toBeRefused();
});
