import type { FastifyRequest } from 'fastify';
import { BgError } from '../errors.js';
import { beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';
import { isIpv4, isUuid, UUID } from '../../spec/header-forms.js';
import { BIC } from '../plugins/guard.js';
import type { Variant } from './variant.js';

/** The sentence that leaves every status code open: a conforming bank may answer another code of the right class. */
const ALLOWS = 'HTTP status codes of each operation and the complete list of error codes and categories: not shown';

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const CONSENT_AUTHORISATIONS = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations$/;
const TRANSACTIONS = /\/accounts\/:accountId\/transactions$/;
const DIRECTORY_DETAILS: [RegExp, string, RegExp][] = [
  [/\/aspsps\/:bicFi$/, 'bicFi', BIC],
  [/\/cities\/:cityId$/, 'cityId', UUID],
  [/\/countries\/:isoCountryCode$/, 'isoCountryCode', /^[A-Za-z]{2}$/],
];

const DD_CREATE = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const DD_CONFIRM = /^\/iso\/payments\/confirm$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A direct debit body given a currency, instrument, debtor IBAN or date that breaks a MUST of create. */
function breaksAMustOfCreate(body: unknown): boolean {
  const b = body as {
    instructedAmount?: { currency?: unknown };
    localInstrumentCode?: unknown;
    debtorAccount?: { iban?: unknown };
    requestedExecutionDate?: unknown;
    mandateRelatedInformation?: { dateOfSignature?: unknown };
  } | null;
  const given = (v: unknown): v is string => typeof v === 'string';
  const currency = b?.instructedAmount?.currency;
  const iban = b?.debtorAccount?.iban;
  const dates = [b?.requestedExecutionDate, b?.mandateRelatedInformation?.dateOfSignature];
  return (
    (given(currency) && currency !== 'EUR') ||
    (given(b?.localInstrumentCode) && b?.localInstrumentCode !== 'CORE') ||
    (given(iban) && !iban.startsWith('NL')) ||
    dates.some((d) => given(d) && !ISO_DATE.test(d))
  );
}

const emptyBasket = (req: FastifyRequest) => {
  const ids = (req.body as { paymentIds?: unknown } | undefined)?.paymentIds;
  return !Array.isArray(ids) || ids.length === 0;
};

/** Other status codes of the right class, where the specification shows none. */
const variants: Variant[] = [
  {
    id: 'codes.unauthorised-plain-text',
    description:
      'a call without Authorization is refused by the bearer-token layer: 401 with WWW-Authenticate Bearer and a plain-text body, no tppMessages',
    allows:
      "Error and information messages use the TPP message shape: `category`, `code`, `path`, `text`. (Errors 1; the 401 of a missing bearer token is RFC 6750's, whose body is not shown)",
    concerns: [
      'headers.errors.tpp-messages',
      'headers.errors.tpp-messages-unauthorised',
      'headers.errors.tpp-message-category',
      'headers.authorization.required',
      'headers.authorization.required-code',
      'headers.content-type.json',
    ],
    // Its plain text is not JSON either: headers.content-type.json (a SHOULD) warns on it too.
    warns: [
      'headers.errors.tpp-messages-unauthorised',
      'headers.errors.tpp-message-category',
      'headers.content-type.json',
    ],
    install: (app) =>
      app.addHook('onSend', async (req, reply, payload) => {
        if (reply.statusCode !== 401 || req.headers.authorization || !/^\/(psd2|iso)\//.test(req.url)) return payload;
        reply.header('WWW-Authenticate', 'Bearer').type('text/plain; charset=utf-8');
        return 'Unauthorized';
      }),
  },
  ...(
    [
      [403, 'SERVICE_BLOCKED'],
      [422, 'PARAMETER_NOT_SUPPORTED'],
    ] as const
  ).map(([status, code]): Variant => ({
    id: `codes.delta-list-refused-${status}`,
    description: `deltaList=true is rejected with ${status} ${code} (not 400)`,
    allows: '| deltaList | boolean | entries since the last report; may be rejected | (HTTP status codes: not shown)',
    concerns: ['accounts.transactions.delta-list'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: TRANSACTIONS }, (req) => {
        if (String((req.query as Record<string, unknown>).deltaList) === 'true')
          throw new BgError(status, code, 'deltaList is not supported', 'deltaList');
      }),
  })),
  {
    id: 'codes.city-filter-forbidden',
    description: 'a cityIds value that is no uuid is answered 403 FORMAT_ERROR (not 400)',
    allows: ALLOWS,
    concerns: ['directory.aspsps.filter-city-format', 'directory.aspsps.filter-city-format-code'],
    warns: ['directory.aspsps.filter-city-format-code'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: /\/aspspinformation\/v1\/aspsps$/ }, (req) => {
        const ids = (req.query as Record<string, unknown>).cityIds;
        const values = (Array.isArray(ids) ? ids : ids === undefined ? [] : [ids]).map(String);
        if (values.some((v) => !isUuid(v))) throw new BgError(403, 'FORMAT_ERROR', 'cityIds must be uuids', 'cityIds');
      }),
  },
  {
    id: 'codes.malformed-directory-values-404',
    description:
      'bank detail, city and country look a malformed path value up as given, with no pattern check, and answer 404 RESOURCE_UNKNOWN (not 400 FORMAT_ERROR)',
    allows: ALLOWS,
    concerns: [
      'directory.aspsp.bicfi-format',
      'directory.aspsp.bicfi-format-code',
      'directory.city.id-format',
      'directory.country.code-format',
    ],
    warns: ['directory.aspsp.bicfi-format-code'],
    install: (app) => {
      for (const [route, param, pattern] of DIRECTORY_DETAILS)
        beforeHandler(app, { method: 'GET', route }, (req) => {
          const value = (req.params as Record<string, string>)[param];
          if (typeof value === 'string' && !pattern.test(value))
            throw new BgError(404, 'RESOURCE_UNKNOWN', `no resource ${value}`, param);
        });
    },
  },
  {
    id: 'codes.basket-created-200',
    description: 'create signing basket answers 200 instead of 201',
    allows: ALLOWS,
    concerns: ['signing-baskets.create.response', 'signing-baskets.create.response-code'],
    warns: ['signing-baskets.create.response-code'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: BASKETS, status: 201 }, (_req, reply) => void reply.status(200)),
  },
  {
    id: 'codes.authorisation-created-200',
    description: 'create authorisation (on a consent) answers 200 instead of 201',
    allows: ALLOWS,
    concerns: [
      'authorisations.start.any-method',
      'authorisations.create.response',
      'authorisations.create.response-code',
    ],
    warns: ['authorisations.create.response-code'],
    install: (app) =>
      rewriteReply(
        app,
        { method: 'POST', route: CONSENT_AUTHORISATIONS, status: 201 },
        (_req, reply) => void reply.status(200),
      ),
  },
  {
    id: 'codes.consent-created-200',
    description: 'create consent answers 200 instead of 201 (with its Location and ASPSP-SCA-Approach)',
    allows: ALLOWS,
    concerns: [
      'consents.create.response',
      'consents.create.response-code',
      'consents.create.headers',
      'consents.create.complete',
      'consents.create.direct-debit',
      'consents.read.fields',
      'consents.valid-until.maximum',
      'consents.status.response',
      'consents.delete.terminated',
      'direct-debit.confirm.consent-authorised',
    ],
    warns: ['consents.create.response-code'],
    install: (app) =>
      rewriteReply(
        app,
        { method: 'POST', route: /^\/psd2\/consent\/v1\/consents$/, status: 201 },
        (_req, reply) => void reply.status(200),
      ),
  },
  {
    id: 'codes.error-path-under-body',
    description:
      'the refusals of initiate payment and create consent name the field in a path rooted at the request body (body.instructedAmount, body.debtorAccount.iban), as request validators report it',
    allows:
      'An error body is `{"tppMessages":[{"category":"ERROR","code":"FORMAT_ERROR","path":"...","text":"..."}]}` (Errors 1: the notation of the path is not shown)',
    concerns: ['payments.initiate.required-fields-path', 'consents.create.format-error'],
    warns: [],
    install: (app) =>
      rewriteJson(
        app,
        {
          route: /^\/psd2\/(paymentinitiation\/v1\/:paymentService\/:paymentProduct|consent\/v1\/consents)$/,
          status: 400,
        },
        (b: { tppMessages?: { path?: unknown }[] }) => {
          for (const m of b.tppMessages ?? [])
            if (typeof m.path === 'string' && m.path && !m.path.startsWith('body.')) m.path = `body.${m.path}`;
        },
      ),
  },
  {
    id: 'codes.payment-created-200',
    description: 'initiate payment answers 200 instead of 201 (with its Location and ASPSP-SCA-Approach)',
    allows: ALLOWS,
    concerns: [
      'payments.initiate.response',
      'payments.initiate.response-code',
      'payments.initiate.headers',
      'payments.initiate.complete',
      'payments.text.character-set',
      'payments.multilevel.no-sca-links',
    ],
    warns: ['payments.initiate.response-code'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: INITIATE, status: 201 }, (_req, reply) => void reply.status(200)),
  },
  {
    id: 'codes.empty-basket-422',
    description: 'a basket with no payments is refused with 422 (and the Berlin Group error body) instead of 400',
    allows: ALLOWS,
    concerns: ['signing-baskets.create.empty', 'signing-baskets.create.empty-code'],
    warns: ['signing-baskets.create.empty-code'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: BASKETS, status: 400 }, (req, reply) => {
        if (emptyBasket(req)) reply.status(422);
      }),
  },
  {
    id: 'codes.psu-ip-address-403',
    description:
      'initiate payment without (or with a malformed) PSU-IP-Address is refused with 403 (and the Berlin Group error body) instead of 400',
    allows: ALLOWS,
    concerns: [
      'headers.psu-ip-address.payments',
      'headers.psu-ip-address.payments-format',
      'headers.psu-ip-address.payments-code',
    ],
    warns: ['headers.psu-ip-address.payments-code'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: INITIATE, status: 400 }, (req, reply) => {
        if (!isIpv4(req.headers['psu-ip-address'])) reply.status(403);
      }),
  },
  {
    id: 'codes.booking-status-422',
    description:
      'a missing or unknown bookingStatus is refused with 422 (and the Berlin Group error body) instead of 400',
    allows: ALLOWS,
    concerns: ['accounts.transactions.booking-status-required', 'accounts.transactions.booking-status-required-code'],
    warns: ['accounts.transactions.booking-status-required-code'],
    install: (app) =>
      rewriteReply(app, { method: 'GET', route: TRANSACTIONS, status: 400 }, (req, reply) => {
        const q = req.query as { bookingStatus?: unknown };
        if (!['booked', 'pending', 'both'].includes(String(q.bookingStatus))) reply.status(422);
      }),
  },
  {
    id: 'codes.direct-debit-confirmed-202',
    description: 'confirm direct debit answers 202 (with its FILE_UPLOADED message) instead of 200',
    allows: ALLOWS,
    concerns: [
      'direct-debit.confirm.file-uploaded',
      'direct-debit.flow.section-h',
      'direct-debit.get.rejected-mandate',
      'direct-debit.confirm.already-confirmed',
      'direct-debit.consent.long-lived',
      'direct-debit.file.pain008-valid',
      'direct-debit.file.totals',
    ],
    warns: [],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: DD_CONFIRM, status: 200 }, (_req, reply) => void reply.status(202)),
  },
  {
    id: 'codes.direct-debit-refusals-422',
    description:
      'create direct debit refuses a collection in another currency than EUR, not CORE, from a debtor outside the Netherlands or with a date that is not ISO 8601 with 422 (and the Berlin Group error body) instead of 400',
    allows: ALLOWS,
    concerns: [
      'direct-debit.create.currency-eur',
      'direct-debit.create.local-instrument-core',
      'direct-debit.create.debtor-nl',
      'direct-debit.create.dates-iso',
      'direct-debit.create.refusal-code',
    ],
    warns: ['direct-debit.create.refusal-code'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: DD_CREATE, status: 400 }, (req, reply) => {
        if (breaksAMustOfCreate(req.body)) reply.status(422);
      }),
  },
  {
    id: 'codes.basket-delete-refused-403',
    description:
      'deleting a signing basket whose authorisation has been applied is refused with 403 (and the Berlin Group error body) instead of 409',
    allows: ALLOWS,
    concerns: [
      'signing-baskets.delete.after-authorisation',
      'signing-baskets.delete.after-authorisation-code',
      'signing-baskets.delete.after-partial-authorisation',
    ],
    warns: ['signing-baskets.delete.after-authorisation-code'],
    install: (app) =>
      rewriteReply(app, { method: 'DELETE', route: BASKET, status: 409 }, (_req, reply) => void reply.status(403)),
  },
];

export default variants;
