import { today } from '../../spec/iso8601.js';
import type { FastifyRequest } from 'fastify';
import { BgError } from '../errors.js';
import { beforeHandler } from '../hooks.js';
import { psuOf } from '../routes/consents.js';
import { psuBank } from '../seed/accounts.js';
import type { Variant } from './variant.js';

/*
 * Banks that decline a value the schema allows with a business code of the reference facts, while
 * they accept what every bank must: no combined AIS and PIS session, execution dates up to 45 days
 * ahead and on business days only, collections up to 14 days before their due date, amounts with
 * two decimals only, references to accounts the PSU holds only. Each claims its narrower space in
 * the profile (a bank judged as it says it is); the suite must stay conformant under each.
 */

type Body = Record<string, unknown> | undefined;

const CONSENTS = /^\/psd2\/consent\/v1\/consents$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const COLLECT = /^\/iso\/beta\/payments\/sepa-direct-debit$/;

const body = (req: FastifyRequest) => req.body as Body;

/** Whole days from today (UTC) to an ISO date. */
const daysAhead = (date: string) =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / 86_400_000);

const isoDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const weekend = (date: string) => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());

/** The references of a consent's access lists. */
const references = (b: Body): Record<string, unknown>[] => {
  const access = (b?.access ?? {}) as Record<string, unknown>;
  return ['balances', 'transactions', 'accounts'].flatMap((k) =>
    Array.isArray(access[k]) ? (access[k] as Record<string, unknown>[]) : [],
  );
};

const variants: Variant[] = [
  {
    id: 'consents.combined-sessions-declined',
    description:
      'a bank that offers no combined AIS and PIS session: create consent with combinedServiceIndicator true is declined with 400 SESSIONS_NOT_SUPPORTED',
    allows:
      '| combinedServiceIndicator | boolean | yes | true if a payment initiation is addressed in the same session | (Resources > Consent: what true means, not that a bank offers it); reference facts: "400 | ... AIS also SESSIONS_NOT_SUPPORTED"',
    concerns: [
      'consents.create.combined-service',
      'consents.create.response',
      'consents.read.fields',
      'headers.consent-id.payment-initiation',
      'headers.consent-id.basket-creation',
    ],
    warns: [],
    claims: { consents: { combinedSessions: 'may-decline' } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CONSENTS }, (req) => {
        if (body(req)?.combinedServiceIndicator === true)
          throw new BgError(
            400,
            'SESSIONS_NOT_SUPPORTED',
            'combined sessions are not offered',
            'combinedServiceIndicator',
          );
      }),
  },
  {
    id: 'consents.other-accounts-declined',
    description:
      "create consent naming an account the PSU does not hold (an IBAN not among the PSU's accounts, any card reference) is declined with 400 RESOURCE_UNKNOWN",
    allows:
      '"A reference has `iban`, `maskedPan` or `pan`, and an optional `currency`." (Resources > Consent: the form, not which accounts); reference facts: RESOURCE_UNKNOWN "the addressed resource is unknown relative to the TPP", 400',
    concerns: ['consents.create.account-references', 'consents.create.response', 'consents.read.fields'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CONSENTS }, (req) => {
        const refs = references(body(req));
        if (!refs.length) return;
        const { psuId, context } = psuOf(req);
        const held = new Set(psuBank(psuId, context).accounts.map((a) => a.iban.toUpperCase()));
        const other = refs.find(
          (r) => typeof r.iban !== 'string' || !held.has(r.iban.replace(/\s+/g, '').toUpperCase()),
        );
        if (other) throw new BgError(400, 'RESOURCE_UNKNOWN', 'the PSU holds no such account', 'access');
      }),
  },
  {
    id: 'payments.execution-dates-45-days-business-days',
    description:
      'a bank that takes payment orders up to 45 days ahead and on weekdays only: a requestedExecutionDate or startDate later, or on a Saturday or Sunday, is declined with 400 EXECUTION_DATE_INVALID',
    allows:
      '| requestedExecutionDate | string | no | ISO date | (Resources > Payment initiation: no horizon given); reference facts: "A requestedExecutionDate the bank cannot execute (in the past) is refused with 400 `EXECUTION_DATE_INVALID`"',
    concerns: ['payments.initiate.response', 'payments.read.fields', 'payments.execution-date.past'],
    warns: [],
    claims: { payments: { executionHorizonDays: 45, nonBusinessDays: 'may-decline' } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        for (const field of ['requestedExecutionDate', 'startDate']) {
          const date = body(req)?.[field];
          if (isoDay(date) && (daysAhead(date) > 45 || weekend(date)))
            throw new BgError(400, 'EXECUTION_DATE_INVALID', `${date} is no business day within 45 days`, field);
        }
      }),
  },
  {
    id: 'payments.amounts-two-decimals',
    description: 'a bank that takes amounts with two decimals only: "12" or "12.5" is declined with 400 FORMAT_ERROR',
    allows:
      '| instructedAmount | object (amount) | yes | `currency`, `amount` (string) | (Resources > Payment initiation: no pattern); the reference facts give Berlin Group\'s pattern, which allows "12", "12.5" and "12.50"',
    concerns: ['payments.initiate.response', 'payments.read.fields', 'payments.text.character-set'],
    warns: [],
    claims: { payments: { amountForms: 'two-decimals' } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const b = body(req);
        const amounts = Array.isArray(b?.payments)
          ? (b.payments as Body[]).map((p) => p?.instructedAmount)
          : [b?.instructedAmount];
        const amount = (a: unknown) => (a as Body)?.amount;
        if (amounts.some((a) => typeof amount(a) === 'string' && !/^-?\d+\.\d{2}$/.test(amount(a) as string)))
          throw new BgError(400, 'FORMAT_ERROR', 'amounts are written with two decimals', 'instructedAmount.amount');
      }),
  },
  {
    id: 'direct-debit.lead-time-14-days',
    description:
      'a bank that takes a SEPA Core collection at most 14 days before its due date: a later requestedExecutionDate is declined with 400 EXECUTION_DATE_INVALID',
    allows:
      '| requestedExecutionDate | string(date) | ISO 8601 | (Resources > SEPA direct debit payment: no lead time given); the SEPA Core rulebook takes a collection up to 14 calendar days before its due date',
    concerns: ['direct-debit.create.response', 'direct-debit.get.fields'],
    warns: [],
    claims: { directDebit: { leadTimeDays: 14 } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: COLLECT }, (req) => {
        const date = body(req)?.requestedExecutionDate;
        if (isoDay(date) && daysAhead(date) > 14)
          throw new BgError(
            400,
            'EXECUTION_DATE_INVALID',
            `${date} is more than 14 days ahead`,
            'requestedExecutionDate',
          );
      }),
  },
  {
    id: 'headers.affiliated-bank-holds-other-psus',
    description:
      "an affiliated bank named by X-AffiliatedASPSP-ID holds none of X-BicFi's PSUs and accounts: create consent with the header answers 401 PSU_CREDENTIALS_INVALID, initiate payment 400 RESOURCE_UNKNOWN (debtorAccount)",
    allows:
      "| X-AffiliatedASPSP-ID | string | ID of an affiliated bank related to X-BicFi; on create consent and initiate payment | (Common request headers: names an affiliate, not that it holds the parent bank's PSU); reference facts: 401 PSU_CREDENTIALS_INVALID, 400 RESOURCE_UNKNOWN",
    concerns: ['headers.affiliated-aspsp-id.accepted'],
    warns: [],
    install: (app) =>
      app.addHook('preHandler', async (req) => {
        if (req.method !== 'POST' || req.headers['x-affiliatedaspsp-id'] === undefined) return;
        const route = req.routeOptions.url ?? '';
        if (CONSENTS.test(route))
          throw new BgError(401, 'PSU_CREDENTIALS_INVALID', 'the affiliated bank holds no such PSU', 'PSU-ID');
        if (INITIATE.test(route))
          throw new BgError(400, 'RESOURCE_UNKNOWN', 'the affiliated bank holds no such account', 'debtorAccount');
      }),
  },
];

export default variants;
