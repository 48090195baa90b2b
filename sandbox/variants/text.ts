import { beforeHandler } from '../hooks.js';
import type { Variant } from './variant.js';

// Text fields beyond the specification's minimum character set: what real banks do with what the
// minimum leaves open. The generated phase (tests/payments/generated/) draws its texts from the minimum set
// only, so neither moves its verdicts: a generator drawing any Unicode, or leading and trailing
// spaces, and asking them back byte for byte, would fail these conformant banks.

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
    concerns: ['payments.text.character-set', 'payments.read.fields', 'payments.initiate.response'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => editTexts(req.body as Body, fold)),
  },
  {
    id: 'payments.text-trimmed',
    description: 'payment text fields are stored with their leading and trailing spaces trimmed',
    allows: MINIMUM,
    concerns: ['payments.text.character-set', 'payments.read.fields', 'payments.initiate.response'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => editTexts(req.body as Body, (s) => s.trim())),
  },
];

export default variants;
