import { today } from '../../spec/iso8601.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Fault } from './fault.js';
import { BgError } from '../errors.js';
import { beforeHandler } from '../hooks.js';
import { MAX_LENGTH, unenforcedField } from './payments.js';
import { fakeAuthorisation, params } from './shapes.js';

// Faults that sit between the hand-written checks' points and that only the generated phase
// (tests/payments/properties/) finds: a character in one field of one product, a limit on one service,
// a status that moves back after one order of calls (the payment's and its cancellation's state walks,
// payment-walks.spec.ts and cancellation-walks.spec.ts), a character class in one field of one product
// or a text cut at its first character outside ASCII (the robustness properties, robustness.spec.ts).
// The hand-written checks alone pass each.

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const AUTHORISATIONS = '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct/:paymentId/authorisations';

type Body = Record<string, unknown>;

/** The creditorAddress.city values of a payment body: its own, and each bulk payment's. */
const cities = (body: Body | undefined): unknown[] =>
  [body, ...((body?.payments as Body[] | undefined) ?? [])].map((p) => (p?.creditorAddress as Body | undefined)?.city);

/** Whole days from today (UTC) to an ISO date. */
const daysAhead = (date: string) =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / 86_400_000);

const CANCELLATIONS =
  '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct/:paymentId/cancellation-authorisations';

/** The payment of a cancellation-authorisations POST, when its cancellation's SCA finalised (it is CANC by it). */
const cancelledByAuthorisation = (app: FastifyInstance, req: FastifyRequest) => {
  if (req.method !== 'POST' || req.routeOptions.url !== CANCELLATIONS) return undefined;
  const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
  return p?.cancellation?.status === 'CANC' ? p : undefined;
};

/** A payment body and each payment of a bulk. */
const paymentsOf = (body: unknown): Body[] =>
  body && typeof body === 'object'
    ? [body as Body, ...(((body as Body).payments as Body[] | undefined) ?? [])].filter(
        (p) => p && typeof p === 'object',
      )
    : [];

const faults: Fault[] = [
  {
    id: 'payments.execution-date-declined-within-horizon',
    caughtBy: 'properties',
    description:
      "a requestedExecutionDate or startDate more than 12 days ahead is declined with 400 EXECUTION_DATE_INVALID, within the horizon the profile claims (payments.executionHorizonDays 90, the reference profile's): a must-accept date refused with the business code",
    // payments.read.fields is blocked by it (a refused create blocks the read-back).
    breaks: ['payments.initiate.response'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        for (const field of ['requestedExecutionDate', 'startDate']) {
          const date = (req.body as Body | undefined)?.[field];
          if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && daysAhead(date) > 12)
            throw new BgError(400, 'EXECUTION_DATE_INVALID', `${date} is too far ahead`, field);
        }
      }),
  },
  {
    id: 'payments.city-slash-server-error',
    caughtBy: 'properties',
    description:
      "an international payment whose creditorAddress.city holds a '/' (a character of the specification's set) is answered 500: the bank splits the city on it and fails",
    breaks: ['payments.text.character-set'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const { paymentProduct } = req.params as { paymentProduct: string };
        if (paymentProduct === 'international' && cities(req.body as Body).some((c) => String(c).includes('/')))
          throw new Error('creditorAddress.city: unexpected path separator');
      }),
  },
  {
    id: 'payments.street-limit-single-only',
    caughtBy: 'properties',
    description:
      'the 70-character limit of creditorAddress.street is enforced on single payments only: bulk and periodic payments take a longer street',
    breaks: ['payments.limits.creditor-address-street'],
    install: (app) => unenforcedField(app, /^payments\/(bulk|periodic)-payment/, 'street', MAX_LENGTH),
  },
  {
    id: 'payments.status-back-after-refused-authorisation',
    caughtBy: 'properties',
    description:
      'a refused create authorisation on a payment whose SCA has ended sets its transactionStatus back to RCVD',
    breaks: ['payments.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== AUTHORISATIONS) return;
        if (reply.statusCode < 400 || reply.statusCode >= 500) return;
        const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
        if (p && ['ACTC', 'ACSC'].includes(p.status)) p.status = 'RCVD';
      }),
  },
  {
    id: 'payments.cancelled-revived-by-cancellation-authorisation',
    caughtBy: 'properties',
    description:
      'a create cancellation authorisation (refused) on a payment cancelled by its finalised cancellation authorisation (CANC) sets its transactionStatus back to ACTC',
    breaks: ['payments.cancel.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req) => {
        const p = cancelledByAuthorisation(app, req);
        if (p?.status === 'CANC') p.status = 'ACTC';
      }),
  },
  {
    id: 'payments.cancellation-authorised-again',
    caughtBy: 'properties',
    description:
      'a create cancellation authorisation on a payment whose cancellation authorisation finalised (CANC) is accepted (201 with an authorisationId), as if the cancellation still awaited it',
    breaks: ['payments.cancel.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('preValidation', async (req, reply) => {
        if (!cancelledByAuthorisation(app, req)) return;
        fakeAuthorisation(req, reply);
        return reply;
      }),
  },
  {
    id: 'payments.latin1-creditor-name-server-error',
    caughtBy: 'properties',
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
    id: 'payments.fx-quote-id-long-server-error',
    caughtBy: 'properties',
    description:
      'an international-tp payment whose FX-Quote-Id is longer than 255 characters is answered 500: the bank looks the quote up in a column of that width (the configured quote is taken)',
    breaks: ['payments.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const { paymentProduct } = req.params as Record<string, string>;
        const quote = req.headers['fx-quote-id'];
        if (paymentProduct === 'international-tp' && typeof quote === 'string' && quote.length > 255)
          throw new Error('FX-Quote-Id: value too long for the quote column');
      }),
  },
  {
    id: 'payments.remittance-cut-at-non-ascii',
    caughtBy: 'properties',
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
