import { formatError } from '../errors.js';
import { beforeHandler } from '../hooks.js';
import type { Variant } from './variant.js';

// Text fields beyond the specification's minimum character set: what real banks do with what the
// minimum leaves open. The generated text properties draw from the minimum set only, which none of
// these moves; the generated robustness properties (tests/payments/properties/robustness.spec.ts)
// send any Unicode and spaces at either end, and hold a text taken to read back as sent or as the
// profile's texts.normalisation declares: each bank that changes texts declares what it does (its
// `claims`); a bank that refuses them needs no declaration.

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

type Body = Record<string, unknown>;

const TEXT_FIELDS = [
  'endToEndIdentification',
  'creditorName',
  'creditorAgentName',
  'remittanceInformationUnstructured',
  'debtorAccountMessage',
  'invoiceRef',
];
const ADDRESS_FIELDS = ['street', 'buildingNumber', 'city', 'postalCode'];

/** Applies `edit` to every text field of a payment body: its own, its address's, and each bulk payment's. */
function editTexts(body: Body | undefined, edit: (s: string) => string): void {
  for (const p of [body, ...((body?.payments as Body[] | undefined) ?? [])]) {
    if (!p || typeof p !== 'object') continue;
    for (const f of TEXT_FIELDS) if (typeof p[f] === 'string') p[f] = edit(p[f] as string);
    const a = p.creditorAddress as Body | undefined;
    if (a && typeof a === 'object')
      for (const f of ADDRESS_FIELDS) if (typeof a[f] === 'string') a[f] = edit(a[f] as string);
  }
}

/** Latin letters with their marks taken off (é → e), and any other character outside printable ASCII as '?'. */
const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?');

const MINIMUM =
  "Text fields must support at least these characters: a-z, A-Z, 0-9, and `/ - ? : ( ) . , ' +`. (What the service does > General rules: at least; what a bank does with other characters is its own)";

const variants: Variant[] = [
  {
    id: 'payments.text-wider-set-folded',
    description:
      "payment text fields take any character; those beyond printable ASCII are stored folded (é as e, others as '?'), as banks that pass payments on to SEPA do",
    allows: MINIMUM,
    concerns: [
      'payments.text.character-set',
      'payments.read.fields',
      'payments.initiate.response',
      'payments.robustness.any-input',
    ],
    warns: [],
    claims: { texts: { normalisation: ['fold'] } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => editTexts(req.body as Body, fold)),
  },
  {
    id: 'payments.text-trimmed',
    description: 'payment text fields are stored with their leading and trailing spaces trimmed',
    allows: MINIMUM,
    concerns: [
      'payments.text.character-set',
      'payments.read.fields',
      'payments.initiate.response',
      'payments.robustness.any-input',
    ],
    warns: [],
    claims: { texts: { normalisation: ['trim'] } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => editTexts(req.body as Body, (s) => s.trim())),
  },
  {
    id: 'payments.text-beyond-ascii-refused',
    description:
      'payment text fields holding any character beyond printable ASCII (the minimum set and the rest of ASCII) are refused with 400 FORMAT_ERROR and a tppMessage naming the field, as banks bound to a legacy character set do',
    allows: MINIMUM,
    concerns: [
      'payments.text.character-set',
      'payments.read.fields',
      'payments.initiate.response',
      'payments.robustness.any-input',
    ],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) =>
        editTexts(req.body as Body, (s) => {
          if (/[^\x20-\x7e]/.test(s)) throw formatError('text field: characters outside the supported set');
          return s;
        }),
      ),
  },
];

export default variants;
