import { bendSigning } from '../plugins/signing.js';
import type { Fault } from './fault.js';

/** Application-level signing (sandbox/plugins/signing.ts): each fault switches one of its checks off. */
const faults: Fault[] = [
  {
    id: 'headers.signing-signed-calls-refused',
    description: 'every signed call is refused with SIGNATURE_INVALID, however well signed',
    breaks: ['headers.signing.signed-accepted'],
    install: (app) => bendSigning(app, 'refuse-all'),
  },
  {
    id: 'headers.digest-optional-when-signed',
    description:
      'a call whose signature holds is served without Digest (the headers list need not name digest): only an unverifiable signature is refused',
    breaks: ['headers.digest.with-signature'],
    install: (app) => bendSigning(app, 'digest-optional'),
  },
  {
    id: 'headers.digest-any-algorithm',
    description:
      'a Digest of any hash (MD5=<base64>, SHA-1=...) is taken when it matches the body: only a Digest that does not match is refused',
    breaks: ['headers.digest.format'],
    install: (app) => bendSigning(app, 'digest-any-algorithm'),
  },
  {
    id: 'headers.signing-wrong-digest-accepted',
    description: 'the Digest of a call without a body is not compared with the empty body',
    breaks: ['headers.signing.digest-mismatch'],
    install: (app) => bendSigning(app, 'digest-bodyless'),
  },
  {
    id: 'headers.signing-tampered-body-accepted',
    description: 'the Digest of a call with a body is not compared with that body',
    breaks: ['headers.signing.tampered-body'],
    install: (app) => bendSigning(app, 'digest-body'),
  },
  {
    id: 'headers.signature-algorithm-unchecked',
    description:
      "the Signature's algorithm label is not read: a signature labelled hmac-sha256 is verified as rsa-sha256 and served",
    breaks: ['headers.signing.signature-form'],
    install: (app) => bendSigning(app, 'signature-algorithm'),
  },
  {
    id: 'headers.signing-signature-not-verified',
    description: 'the signature is not verified against the key of TPP-Signature-Certificate',
    breaks: ['headers.signing.other-key'],
    install: (app) => bendSigning(app, 'signature'),
  },
  {
    id: 'headers.signing-expired-certificate-accepted',
    description: "the signing certificate's validity dates are not checked",
    breaks: ['headers.signing.expired-certificate'],
    install: (app) => bendSigning(app, 'validity'),
  },
  {
    id: 'headers.signing-role-not-checked',
    description: "the signing certificate's PSD2 roles are not checked against the service",
    breaks: ['headers.signing.role-missing', 'headers.signing.ais-only-payment'],
    install: (app) => bendSigning(app, 'role'),
  },
  {
    id: 'headers.signing-unsigned-served-though-mandated',
    description:
      'the bank says it mandates signing (signatures.mandated) but serves unsigned calls: the sandbox as it runs by default, under that claim',
    breaks: ['headers.signing.unsigned-refused', 'headers.signing.unsigned-refused-code'],
    claims: { signatures: { mandated: true } },
    install: () => undefined,
  },
];

export default faults;
