import type { FastifyInstance, FastifyRequest } from 'fastify';
import { composeIBAN } from 'ibantools';
import { isIso13616Iban } from '../../spec/iso13616.js';
import { BgError } from '../errors.js';
import { PRODUCTS } from '../payments/rules.js';
import { type Fault } from './fault.js';
import { answerWithoutBody, beforeGuard, beforeHandler, rewriteJson } from '../hooks.js';
import { asOwner, deadStatusLink, esc, params, refuseAsFormatError } from './shapes.js';

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;
const INITIATE_PATH = '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct';
const STATUS = /\/:paymentService\/:paymentProduct\/:paymentId\/status$/;
const AUTHORISATIONS = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations$/;
const AUTHORISATION = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const CANCELLATIONS = /\/:paymentService\/:paymentProduct\/:paymentId\/cancellation-authorisations$/;

type Body = Record<string, unknown>;

/** Errors at `field` (any nesting) of a payment body's schema check are let through: the field's rule is not enforced. */
export function unenforcedField(app: FastifyInstance, schema: RegExp, field: string, message?: RegExp): void {
  const schemas = app.sandbox.schemas;
  const check = schemas.check.bind(schemas);
  schemas.check = (id, data) => {
    try {
      check(id, data);
    } catch (e) {
      if (
        schema.test(id) &&
        e instanceof BgError &&
        (!message || message.test(e.message)) &&
        e.path
          ?.split('.')
          .pop()
          ?.replace(/\[\d+\]$/, '') === field
      )
        return;
      throw e;
    }
  };
}

/** The schema check's answer to a maxLength broken (ajv's message). */
export const MAX_LENGTH = /must NOT have more than/;

const limitFault = (field: string, max: number, requirement: string): Fault => ({
  id: `payments.${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${max + 1}-accepted`,
  description: `${field} longer than ${max} characters is accepted`,
  breaks: [requirement, `${requirement}-code`],
  // Its length only: the field is still required where it is.
  install: (app) => unenforcedField(app, /^payments\//, field, MAX_LENGTH),
});

const faults: Fault[] = [
  {
    id: 'payments.initiate-status-accp',
    description: 'a new payment answers transactionStatus ACCP instead of RCVD',
    breaks: ['payments.initiate.response'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: INITIATE, status: 201 },
        (b: Body) => void (b.transactionStatus = 'ACCP'),
      ),
  },
  {
    id: 'payments.initiated-without-links',
    description: 'a new payment answers no _links at all (the state table: "paymentId and links returned")',
    breaks: ['payments.initiate.response', 'payments.initiate.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: INITIATE, status: 201 }, (b: Body) => void delete b._links),
  },
  {
    id: 'payments.initiated-without-status-link',
    description: 'a new payment answers _links without status (listed, not required: a completeness warning)',
    breaks: ['payments.initiate.complete'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: INITIATE, status: 201 },
        (b: { _links?: Body }) => void delete b._links?.status,
      ),
  },
  {
    id: 'payments.unknown-product-accepted',
    description: 'an unknown payment product is initiated as sepa-credit-transfers',
    breaks: ['payments.product.unknown', 'payments.product.unknown-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const params = req.params as { paymentProduct: string };
        if (!(PRODUCTS as readonly string[]).includes(params.paymentProduct))
          params.paymentProduct = 'sepa-credit-transfers';
      }),
  },
  {
    id: 'payments.missing-creditor-name-filled',
    description: 'a payment without creditorName is accepted with a made-up name',
    breaks: [
      'payments.initiate.required-fields',
      'payments.initiate.required-fields-bulk-periodic',
      'payments.initiate.required-fields-path',
    ],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const b = req.body as Body | undefined;
        if (!b || typeof b !== 'object') return;
        if (Array.isArray(b.payments)) for (const p of b.payments as Body[]) p.creditorName ??= 'Unknown creditor';
        else b.creditorName ??= 'Unknown creditor';
      }),
  },
  {
    id: 'payments.required-field-path-last-name',
    description:
      'the FORMAT_ERROR of a missing required field names only its last name (creditorName for payments[0].creditorName of a bulk payment)',
    breaks: ['payments.initiate.required-fields-path'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: INITIATE, status: 400 }, (b: Body) => {
        for (const m of (b?.tppMessages ?? []) as Body[])
          if (typeof m.path === 'string')
            m.path = m.path
              .split(/[.[\]]+/)
              .filter(Boolean)
              .pop();
      }),
  },
  limitFault('endToEndIdentification', 35, 'payments.limits.end-to-end-identification'),
  limitFault('creditorName', 70, 'payments.limits.creditor-name'),
  limitFault('creditorAgentName', 70, 'payments.limits.creditor-agent-name'),
  limitFault('remittanceInformationUnstructured', 140, 'payments.limits.remittance-information'),
  limitFault('debtorAccountMessage', 140, 'payments.limits.debtor-account-message'),
  {
    id: 'payments.question-mark-dropped',
    description: 'read payment drops "?" from text fields',
    breaks: ['payments.text.character-set'],
    install: (app) => {
      const strip = (v: unknown): unknown =>
        typeof v === 'string'
          ? v.replace(/\?/g, '')
          : Array.isArray(v)
            ? v.map(strip)
            : v && typeof v === 'object'
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]))
              : v;
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b) => strip(b));
    },
  },
  {
    id: 'payments.execution-date-format-unchecked',
    description: 'requestedExecutionDate is not checked to be an ISO date',
    breaks: ['payments.execution-date.format', 'payments.execution-date.format-code'],
    install: (app) => unenforcedField(app, /^payments\//, 'requestedExecutionDate'),
  },
  {
    id: 'payments.read-amount-as-number',
    description: 'read payment turns instructedAmount.amount into a number',
    breaks: ['payments.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        const amounts = [b, ...(Array.isArray(b.payments) ? (b.payments as Body[]) : [])].map(
          (x) => x.instructedAmount as Body | undefined,
        );
        for (const a of amounts) if (a && typeof a.amount === 'string') a.amount = Number(a.amount);
      }),
  },
  {
    id: 'payments.read-without-status',
    description: 'read payment answers no transactionStatus (listed, not required: a completeness warning)',
    breaks: ['payments.read.complete'],
    install: (app) => rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => void delete b.transactionStatus),
  },
  {
    id: 'payments.status-out-of-step',
    description: 'payment status says PDNG while the payment is RCVD',
    breaks: ['payments.status.response'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'GET', route: STATUS },
        (b: Body) => void (b.transactionStatus === 'RCVD' && (b.transactionStatus = 'PDNG')),
      ),
  },
  {
    id: 'payments.status-outside-code-list',
    description:
      'a payment not yet authorised reads (status and read payment alike) transactionStatus RCVE, a code outside the ISO 20022 list',
    breaks: ['payments.status.values'],
    install: (app) => {
      const rename = (b: Body) => void (b.transactionStatus === 'RCVD' && (b.transactionStatus = 'RCVE'));
      rewriteJson(app, { method: 'GET', route: STATUS }, rename);
      rewriteJson(app, { method: 'GET', route: PAYMENT }, rename);
    },
  },
  {
    id: 'payments.rcvd-after-sca',
    description: 'a finalised SCA leaves the payment RCVD',
    breaks: ['payments.sca.accepted', 'payments.multilevel.last-signer', 'payments.cancel.time-limit'],
    install: (app) => {
      const svc = app.sandbox.payments;
      const ended = svc.paymentScaEnded.bind(svc);
      svc.paymentScaEnded = (id, outcome) => (outcome === 'failed' ? ended(id, outcome) : undefined);
    },
  },
  {
    id: 'payments.authorisation-created-started',
    description: 'a new payment authorisation answers scaStatus started',
    breaks: ['payments.authorisations.create'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: AUTHORISATIONS, status: 201 },
        (b: Body) => void (b.scaStatus = 'started'),
      ),
  },
  {
    id: 'payments.authorisation-list-empty',
    description: 'the payment authorisation list is always empty',
    breaks: ['payments.authorisations.list'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: AUTHORISATIONS }, (b: Body) => void (b.authorisationIds = [])),
  },
  {
    id: 'payments.redirect-acr-without-payment',
    description: 'the scaOAuth link of a payment authorisation does not name the payment in acr_values',
    breaks: ['payments.authorisations.redirect'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: AUTHORISATION }, (b: { _links?: { scaOAuth?: { href: string } } }) => {
        const link = b._links?.scaOAuth;
        if (!link) return;
        const url = new URL(link.href);
        url.searchParams.set('acr_values', (url.searchParams.get('acr_values') ?? '').replace(/paymentId:\S+\s*/, ''));
        link.href = url.toString();
      }),
  },
  {
    id: 'payments.multilevel-with-sca-redirect',
    description: 'a multilevel-SCA payment answers with a scaRedirect link',
    breaks: ['payments.multilevel.no-sca-links'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: INITIATE, status: 201 },
        (b: { _links?: Record<string, { href: string }> }) => {
          if (b._links?.startAuthorisation && !b._links.scaStatus)
            b._links.scaRedirect = { href: 'https://bank.example/sca' };
        },
      ),
  },
  {
    id: 'payments.cancel-202-without-status',
    description: 'a cancellation answered 202 carries no transactionStatus',
    breaks: ['payments.cancel.response'],
    install: (app) =>
      rewriteJson(app, { method: 'DELETE', route: PAYMENT, status: 202 }, (b: Body) => void delete b.transactionStatus),
  },
  {
    id: 'payments.cancel-202-without-self-link',
    description: 'a cancellation answered 202 carries no self link (listed, not required: a completeness warning)',
    breaks: ['payments.cancel.complete'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'DELETE', route: PAYMENT, status: 202 },
        (b: { _links?: Body }) => void delete b._links?.self,
      ),
  },
  {
    id: 'payments.cancel-without-start-authorisation',
    description: 'a cancellation that needs authorisation answers 202 without the startAuthorisation link',
    breaks: ['payments.cancel.start-authorisation-link'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'DELETE', route: PAYMENT, status: 202 },
        (b: { _links?: Body }) => void delete b._links?.startAuthorisation,
      ),
  },
  {
    id: 'payments.authorised-not-cancellable',
    description:
      'cancel of an authorised payment whose execution date lies ahead (ACCP, ACTC) is answered 405 CANCELLATION_INVALID, as if past its time limit',
    breaks: ['payments.cancel.authorised-future-dated'],
    install: (app) =>
      beforeHandler(app, { method: 'DELETE', route: PAYMENT }, (req) => {
        const p = app.sandbox.payments.payments.get((req.params as { paymentId: string }).paymentId);
        if (p && (p.status === 'ACCP' || p.status === 'ACTC'))
          throw new BgError(405, 'CANCELLATION_INVALID', `the payment is ${p.status}: it can no longer be cancelled`);
      }),
  },
  {
    id: 'payments.failed-cancellation-cancels',
    description: 'a failed cancellation authorisation cancels the payment all the same (CANC)',
    breaks: ['payments.cancel.failed-sca-uncancelled'],
    install: (app) => {
      const svc = app.sandbox.payments;
      const ended = svc.cancellationScaEnded.bind(svc);
      svc.cancellationScaEnded = (id) => ended(id, 'finalised');
    },
  },
  {
    id: 'payments.cancellation-ids-renamed',
    description: 'the cancellation authorisation list is keyed authorisationIds instead of cancellationIds',
    breaks: ['payments.cancel.authorisations'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: CANCELLATIONS }, (b: Body) => {
        b.authorisationIds = b.cancellationIds;
        delete b.cancellationIds;
      }),
  },
  {
    id: 'payments.service-product-unchecked-on-authorisation-status',
    description:
      "Authorisation SCA status (payment) answers under any payment service and product: the path's are replaced by the payment's own (read, status, create authorisation and cancel check them)",
    breaks: ['payments.path.service-product'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: AUTHORISATION }, (req) => {
        const params = req.params as { paymentService: string; paymentProduct: string; paymentId: string };
        const p = app.sandbox.payments.payments.get(params.paymentId);
        if (!p) return;
        params.paymentService = p.service;
        params.paymentProduct = p.product;
      }),
  },
  {
    id: 'payments.debtor-iban-check-digits-unchecked',
    description:
      "initiate payment takes a debtorAccount.iban failing its check digits with the check digits corrected (the creditor's are checked)",
    breaks: ['payments.initiate.iban'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const debtor = (req.body as { debtorAccount?: { iban?: unknown } } | undefined)?.debtorAccount;
        const iban = debtor?.iban;
        if (typeof iban !== 'string' || iban.length < 5 || isIso13616Iban(iban)) return;
        const fixed = composeIBAN({ countryCode: iban.slice(0, 2), bban: iban.slice(4) });
        if (fixed) debtor!.iban = fixed;
      }),
  },
  {
    id: 'payments.payment-other-tpp',
    description: "another TPP can read, cancel and authorise a payment (the payment's owner is not checked)",
    breaks: ['payments.ownership.other-tpp', 'payments.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(
        app,
        { route: new RegExp(`^${esc(INITIATE_PATH)}\\/:paymentId(\\/status|\\/authorisations)?$`) },
        (req) => asOwner(req, app.sandbox.payments.payments.get(params(req).paymentId ?? '')?.clientId),
      ),
  },
  {
    id: 'payments.payment-other-tpp-400',
    description: "another TPP's calls on a payment are refused with 400 FORMAT_ERROR, not RESOURCE_UNKNOWN",
    breaks: ['payments.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(INITIATE_PATH)}\\/:paymentId(\\/status)?$`) }, (req) =>
        refuseAsFormatError(req, app.sandbox.payments.payments.get(params(req).paymentId ?? '')?.clientId),
      ),
  },
  {
    id: 'payments.payment-any-service-product',
    description: 'a payment answers under any payment service and product of the path, not only its own',
    breaks: ['payments.path.service-product'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(INITIATE_PATH)}\\/:paymentId`) }, (req) => {
        const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
        if (!p) return;
        params(req).paymentService = p.service;
        params(req).paymentProduct = p.product;
      }),
  },
  {
    id: 'payments.payment-any-iban',
    description: 'initiate payment replaces an empty or invalid debtor or creditor IBAN with a valid one',
    breaks: ['payments.initiate.iban'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(INITIATE_PATH)}$`) }, (req) => {
        const fix = (o: unknown): void => {
          if (Array.isArray(o)) o.forEach(fix);
          else if (o && typeof o === 'object') {
            const rec = o as Record<string, unknown>;
            for (const [k, v] of Object.entries(rec)) {
              if (k === 'iban' && typeof v === 'string' && !isIso13616Iban(v)) rec[k] = 'SE4550000000058398257466';
              else fix(v);
            }
          }
        };
        fix(req.body);
      }),
  },
  {
    id: 'payments.payment-empty-creditor-name',
    description: 'initiate payment fills an empty creditorName in',
    breaks: ['payments.initiate.creditor-name-empty'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(INITIATE_PATH)}$`) }, (req) => {
        const body = req.body as { creditorName?: unknown; payments?: { creditorName?: unknown }[] } | undefined;
        for (const o of [body, ...(Array.isArray(body?.payments) ? body.payments : [])])
          if (o && o.creditorName === '') o.creditorName = 'Creditor';
      }),
  },
  {
    id: 'payments.payment-any-content-type',
    description: 'initiate payment reads any body as JSON, whatever its Content-Type (or none)',
    breaks: ['payments.initiate.content-type'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: new RegExp(`^${esc(INITIATE_PATH)}$`) }, (req) => {
        if (!/^application\/json/i.test(req.headers['content-type'] ?? ''))
          req.headers['content-type'] = 'application/json';
      }),
  },
  {
    id: 'payments.payment-malformed-redirect-uri',
    description: 'initiate payment ignores a TPP-Redirect-URI that is not a URI',
    breaks: ['payments.initiate.redirect-uri-format'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(INITIATE_PATH)}$`) }, (req) => {
        const uri = req.headers['tpp-redirect-uri'];
        if (typeof uri === 'string' && !URL.canParse(uri)) delete req.headers['tpp-redirect-uri'];
      }),
  },
  {
    id: 'payments.cancel-204-leaves-payment',
    description: 'cancelling a payment that needs no cancellation authorisation answers 204 but leaves it as it was',
    breaks: ['payments.cancel.cancelled-after-sca', 'payments.cancel.authorised-future-dated'],
    // Berlin Group's 204 (the reference sandbox answers section D's body): a reading allowed under either.
    claims: { payments: { cancelAnswer: 'either' } },
    install: (app) => {
      answerWithoutBody(app, 'cancel');
      const before = new WeakMap<FastifyRequest, { id: string; status: string }>();
      app.addHook('preHandler', async (req) => {
        if (req.method !== 'DELETE' || !PAYMENT.test(req.routeOptions.url ?? '')) return;
        const id = (req.params as { paymentId: string }).paymentId;
        const p = app.sandbox.payments.payments.get(id);
        if (p) before.set(req, { id, status: p.status });
      });
      app.addHook('onSend', async (req, reply, payload) => {
        const was = before.get(req);
        if (!was || reply.statusCode !== 204) return payload;
        const p = app.sandbox.payments.payments.get(was.id);
        if (p) p.status = was.status as typeof p.status;
        return payload;
      });
    },
  },
  deadStatusLink('payments.initiated-status-link-dead', 'initiate payment', INITIATE, 'payments.initiate.response'),
];

export default faults;
