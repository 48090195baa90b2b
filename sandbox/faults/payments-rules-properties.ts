import { beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';
import type { Fault } from './fault.js';
import { unenforcedField } from './payments.js';

// Faults of a payment rule that only the generated phase's rule breakers
// (tests/payments/properties/payment-rules.spec.ts) send: a rule left unchecked on one service, or
// one no hand-written check breaks. The hand-written checks alone pass each.

/** The schema check's answer to a pattern or an enumeration broken (ajv's messages). */
const PATTERN = /must match pattern/;
const ENUMERATION = /must be equal to one of the allowed values/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

const faults: Fault[] = [
  {
    id: 'payments.bulk-creditor-agent-unchecked',
    caughtBy: 'properties',
    description:
      "a bulk payment's creditorAgent is not checked against the BICFI form (a lower-case or 9-character BIC is taken): single payments, where the hand-written check sends its broken BICs, are checked",
    breaks: ['payments.initiate.creditor-agent-bicfi'],
    install: (app) => unenforcedField(app, /^payments\/bulk-payment/, 'creditorAgent', PATTERN),
  },
  {
    id: 'payments.periodic-frequency-unchecked',
    caughtBy: 'properties',
    description:
      "a periodic payment's frequency is not checked against its enumeration: 'monthly', 'Yearly' or any word is taken and stored",
    breaks: ['payments.periodic.frequency'],
    install: (app) => unenforcedField(app, /^payments\/periodic-payment/, 'frequency', ENUMERATION),
  },
  {
    id: 'payments.redirect-uri-spaces-only',
    caughtBy: 'properties',
    description:
      "initiate payment refuses a TPP-Redirect-URI only when it holds a space: one without a scheme ('//tpp/cb', 'http//tpp') is taken, and the TPP's registered address used",
    breaks: ['payments.initiate.redirect-uri-format'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const uri = req.headers['tpp-redirect-uri'];
        if (typeof uri === 'string' && !/\s/.test(uri) && !URL.canParse(uri))
          req.headers['tpp-redirect-uri'] = 'https://tpp.example/callback';
      }),
  },
  {
    id: 'payments.location-from-end-to-end-id',
    caughtBy: 'properties',
    description:
      'initiate payment builds its Location header from the endToEndIdentification: a payment without one (an optional field) is answered without Location',
    breaks: ['payments.initiate.headers'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: INITIATE }, (req, reply) => {
        const body = req.body as { endToEndIdentification?: unknown; payments?: unknown } | undefined;
        if (body && !Array.isArray(body.payments) && body.endToEndIdentification === undefined)
          reply.removeHeader('location');
      }),
  },
  {
    id: 'payments.single-item-bulk-answered-actc',
    caughtBy: 'properties',
    description:
      'a bulk payment of exactly one payment is answered transactionStatus ACTC on creation (the bank books it as a single payment at once): bulks of two, as every hand-written check sends, are RCVD',
    breaks: ['payments.initiate.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: INITIATE }, (body: { transactionStatus?: string }, req) => {
        const payments = (req.body as { payments?: unknown } | undefined)?.payments;
        if (Array.isArray(payments) && payments.length === 1 && body.transactionStatus !== undefined)
          body.transactionStatus = 'ACTC';
      }),
  },
];

export default faults;
