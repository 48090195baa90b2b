import { formatError } from '../errors.js';
import { SERVICES } from '../payments/rules.js';
import { type Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';
import { unenforcedField } from './payments.js';

// Faults of the initiation rules (tests/payments/initiation-rules.spec.ts).

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;
const AUTHORISATIONS = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations$/;

type Body = Record<string, unknown>;

const faults: Fault[] = [
  {
    id: 'payments.unknown-service-accepted',
    description: 'a payment-service outside the list is initiated as a single payment (201 with a paymentId)',
    breaks: ['payments.service.unknown', 'payments.service.unknown-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const params = req.params as { paymentService: string };
        if (!(SERVICES as readonly string[]).includes(params.paymentService)) params.paymentService = 'payments';
      }),
  },
  {
    id: 'payments.creditor-agent-unchecked',
    description: 'creditorAgent is not checked to be a BICFI',
    breaks: ['payments.initiate.creditor-agent-bicfi', 'payments.initiate.creditor-agent-bicfi-code'],
    install: (app) => unenforcedField(app, /^payments\//, 'creditorAgent'),
  },
  {
    id: 'payments.read-creditor-address-flattened',
    description: 'read payment returns creditorAddress as one string instead of an address object',
    breaks: ['payments.initiate.creditor-address', 'payments.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        const a = b.creditorAddress;
        if (a && typeof a === 'object') b.creditorAddress = Object.values(a as Body).join(', ');
      }),
  },
  {
    id: 'payments.creditor-address-international-only',
    description:
      'creditorAddress is refused (400 FORMAT_ERROR) on the products whose default body has none: sepa-credit-transfers, domestic, swedish-giro',
    breaks: ['payments.initiate.creditor-address'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const { paymentProduct } = req.params as { paymentProduct: string };
        if (
          !paymentProduct.startsWith('international') &&
          (req.body as Body | undefined)?.creditorAddress !== undefined
        )
          throw formatError(`creditorAddress is not supported for ${paymentProduct}`, 'creditorAddress');
      }),
  },
  {
    id: 'payments.empty-psu-data-accepted',
    description: "a payment's start authorisation with an empty psuData is served as if it had no body",
    breaks: ['payments.authorisations.psu-data-empty', 'payments.authorisations.psu-data-empty-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: AUTHORISATIONS }, (req) => {
        const b = req.body as Body | undefined;
        const psuData = b?.psuData;
        if (psuData && typeof psuData === 'object' && Object.keys(psuData).length === 0) delete b!.psuData;
      }),
  },
  {
    id: 'payments.psu-data-not-required-under-operations-table',
    description:
      'a payment\'s start authorisation without psuData is accepted under a profile claiming payments.startAuthorisationBody operations-table (section D: "body psuData (required, non-empty)")',
    breaks: ['payments.authorisations.psu-data-required', 'payments.authorisations.psu-data-required-code'],
    claims: { payments: { startAuthorisationBody: 'operations-table' } },
    // The reference sandbox takes a start with or without psuData: under the operations table that is the fault.
    install: () => undefined,
  },
  {
    id: 'payments.creditor-account-without-iban-refused',
    description: 'a payment whose creditorAccount has neither iban nor bban (pan, maskedPan, msisdn) is refused',
    breaks: ['payments.initiate.account-reference-kinds'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const b = req.body as Body | undefined;
        const creditors = Array.isArray(b?.payments) ? (b.payments as Body[]) : b ? [b] : [];
        for (const x of creditors) {
          const account = x.creditorAccount as Body | undefined;
          if (account && typeof account === 'object' && account.iban === undefined && account.bban === undefined)
            throw formatError('creditorAccount needs an iban or a bban', 'creditorAccount');
        }
      }),
  },
];

export default faults;
