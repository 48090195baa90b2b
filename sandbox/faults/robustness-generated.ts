import { beforeHandler } from '../hooks.js';
import { TRANSACTIONS } from './accounts-shared.js';
import type { Fault } from './fault.js';

// Faults on input outside what the specification defines, which only the generated robustness
// properties (tests/*/properties/robustness.spec.ts) send: a character class in one field of one
// product, a malformed query parameter of one read, a malformed currency in one nested consent
// reference, a text cut at its first character outside ASCII. The hand-written checks and the
// other generated properties send none of them, and pass each.

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const CREATE_CONSENT = /^\/psd2\/consent\/v1\/consents$/;

type Body = Record<string, unknown>;

/** A payment body and each payment of a bulk. */
const paymentsOf = (body: unknown): Body[] =>
  body && typeof body === 'object'
    ? [body as Body, ...(((body as Body).payments as Body[] | undefined) ?? [])].filter(
        (p) => p && typeof p === 'object',
      )
    : [];

const faults: Fault[] = [
  {
    id: 'payments.latin1-creditor-name-server-error',
    description:
      'a single international payment whose creditorName holds a Latin-1 letter beyond ASCII (é, ü, Å…) is answered 500: the bank encodes that one field of that one product for a legacy system that fails on them',
    breaks: ['payments.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const { paymentService, paymentProduct } = req.params as Record<string, string>;
        if (paymentService !== 'payments' || paymentProduct !== 'international') return;
        if (/[\u00c0-\u00ff]/.test(String((req.body as Body | undefined)?.creditorName ?? '')))
          throw new Error('creditorName: cannot encode for the clearing system');
      }),
  },
  {
    id: 'accounts.transactions-date-to-server-error',
    description:
      'the transaction list parses dateTo before checking it: a dateTo that is no ISO date is answered 500 (a malformed dateFrom is still refused with 400)',
    breaks: ['accounts.robustness.query'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: TRANSACTIONS }, (req) => {
        const { dateTo } = req.query as Record<string, unknown>;
        if (dateTo !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(dateTo)))
          throw new RangeError(`Invalid time value: ${String(dateTo)}`);
      }),
  },
  {
    id: 'consents.transactions-reference-currency-server-error',
    description:
      "create consent fails with 500 on an account reference of access.transactions whose currency is not three capital letters (the balances' references are checked and refused with 400, as the schema has it)",
    breaks: ['consents.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE_CONSENT }, (req) => {
        const refs = ((req.body as Body | undefined)?.access as Body | undefined)?.transactions;
        if (!Array.isArray(refs)) return;
        for (const r of refs as Body[])
          if (r && typeof r === 'object' && 'currency' in r && !/^[A-Z]{3}$/.test(String(r.currency)))
            throw new Error('currency lookup failed');
      }),
  },
  {
    id: 'payments.remittance-cut-at-non-ascii',
    description:
      "a payment's remittanceInformationUnstructured is stored up to its first character outside printable ASCII, and the payment accepted: the rest of the text is silently lost (read payment answers the cut text)",
    breaks: ['payments.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        for (const p of paymentsOf(req.body)) {
          const text = p.remittanceInformationUnstructured;
          if (typeof text === 'string') p.remittanceInformationUnstructured = text.replace(/[^\x20-\x7e][^]*$/u, '');
        }
      }),
  },
];

export default faults;
