import { randomUUID } from 'node:crypto';
import { issueToken } from '../auth/tokens.js';
import { BgError, formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { isGeoLocation, isIpv4, isUuid } from '../../spec/header-forms.js';
import { bendSigning } from '../plugins/signing.js';
import { type Fault } from './fault.js';
import { beforeGuard, serveWithScope, beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';

const DIRECTORY = /^\/psd2\/aspspinformation\//;
const ANY_API = /^\/(psd2|iso)\//;

// One operation each, for the faults that break a per-operation rule there only (the check must look at every operation).
const CANCELLATION_STATUS = /\/:paymentId\/cancellation-authorisations\/:authorisationId$/;
const CANCELLATION_START = /\/:paymentId\/cancellation-authorisations$/;
const BALANCES = /\/accounts\/:accountId\/balances$/;
const TRANSACTION_DETAIL = /\/accounts\/:accountId\/transactions\/:transactionId$/;
const COUNTRY = /\/countries\/:isoCountryCode$/;
const CITY = /\/cities\/:cityId$/;
const DIRECT_DEBIT_GET = /^\/iso\/payments\/:paymentId$/;
const DIRECT_DEBIT_CONFIRM = /^\/iso\/payments\/confirm$/;
const BASKET_AUTHORISATION = /\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;
const BASKETS = /\/signing-baskets$/;
const CONSENTS = /\/consents$/;
const CONSENT = /\/consents\/:consentId$/;
const CONSENT_AUTHORISATION = /\/consents\/:consentId\/authorisations\/:authorisationId$/;
const INITIATE = /\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const PAYMENT_STATUS = /\/:paymentService\/:paymentProduct\/:paymentId\/status$/;
const BASKET_STATUS = /\/signing-baskets\/:basketId\/status$/;
const CONSENT_AUTHORISATIONS = /\/consents\/:consentId\/authorisations$/;

const EVERY_SCOPE = ['aspspinformation', 'accountinformation', 'paymentinitiation', 'private', 'corporate'];
/** Refuses a call that carries `name` (an optional header the operation accepts). */
const refuseHeader = (name: string) => (req: { headers: Record<string, unknown> }) => {
  if (req.headers[name.toLowerCase()] !== undefined)
    throw formatError(`header ${name} is not supported on this operation`, name);
};

const faults: Fault[] = [
  {
    id: 'headers.request-id-not-required',
    description: 'a call without X-Request-ID is served as if it had one',
    breaks: [
      'headers.x-request-id.required',
      'headers.x-request-id.required-code',
      'headers.errors.tpp-messages',
      'headers.errors.tpp-message-category',
    ],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (!req.headers['x-request-id']) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.request-id-not-uuid-checked',
    description: 'any X-Request-ID is accepted, uuid or not',
    breaks: ['headers.x-request-id.uuid'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const id = req.headers['x-request-id'];
        if (typeof id === 'string' && id && !/^[0-9a-f-]{36}$/i.test(id)) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.request-id-not-echoed',
    description: 'answers do not carry X-Request-ID',
    breaks: ['headers.x-request-id.echo'],
    install: (app) =>
      rewriteReply(app, { route: ANY_API, status: () => true }, (_req, reply) => {
        reply.removeHeader('X-Request-ID');
      }),
  },
  {
    id: 'headers.authorization-not-required',
    description: 'a call without Authorization is served with a token of every scope',
    breaks: [
      'headers.authorization.required',
      'headers.authorization.required-code',
      'headers.errors.tpp-messages-unauthorised',
      'headers.errors.tpp-message-category',
    ],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (!req.headers.authorization) {
          const t = issueToken(app, 'fault', [
            'aspspinformation',
            'accountinformation',
            'paymentinitiation',
            'private',
            'corporate',
          ]);
          req.headers.authorization = `Bearer ${t.token}`;
        }
      }),
  },
  {
    id: 'headers.unknown-token-accepted',
    description: 'a bearer token that was never issued is accepted',
    breaks: ['headers.authorization.invalid-token', 'headers.authorization.invalid-token-code'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        if (m && !app.sandbox.tokens.has(m[1])) {
          const t = issueToken(app, 'fault', [
            'aspspinformation',
            'accountinformation',
            'paymentinitiation',
            'private',
            'corporate',
          ]);
          req.headers.authorization = `Bearer ${t.token}`;
        }
      }),
  },
  {
    id: 'headers.scope-ignored',
    description: 'a token of any API scope is accepted on the directory',
    breaks: ['headers.authorization.scope'],
    install: (app) =>
      beforeGuard(app, { route: DIRECTORY }, (req) => {
        serveWithScope(app, req, 'aspspinformation');
      }),
  },
  {
    id: 'headers.error-code-renamed',
    description: 'bank detail errors name their code errorCode instead of code',
    breaks: ['headers.errors.tpp-messages', 'directory.aspsp.bicfi-format-code', 'directory.aspsp.unknown-code'],
    install: (app) =>
      rewriteJson(
        app,
        { route: /\/aspsps\/:bicFi$/, status: (s) => s >= 400 },
        (body: { tppMessages?: Record<string, unknown>[] }) => {
          for (const m of body.tppMessages ?? []) {
            m.errorCode = m.code;
            delete m.code;
          }
        },
      ),
  },
  {
    id: 'headers.error-category-information',
    description: 'error messages carry category INFORMATION',
    breaks: ['headers.errors.tpp-message-category'],
    install: (app) =>
      rewriteJson(
        app,
        { route: ANY_API, status: (s) => s >= 400 },
        (body: { tppMessages?: Record<string, unknown>[] }) => {
          for (const m of body.tppMessages ?? []) m.category = 'INFORMATION';
        },
      ),
  },
  {
    id: 'headers.field-case-variant',
    description: 'bank detail carries BicFi beside bicFi',
    breaks: ['headers.fields.case-sensitive'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: /\/aspsps\/:bicFi$/ }, (body: Record<string, unknown>) => {
        body.BicFi = body.bicFi;
      }),
  },
  {
    id: 'headers.account-parameters-case-insensitive',
    description:
      'the transaction list reads its query parameters whatever their casing (BookingStatus, bookingstatus taken as bookingStatus); the directory keeps its filter exact',
    breaks: ['headers.parameters.case-sensitive'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: /\/accounts\/:accountId\/transactions$/ }, (req) => {
        const q = req.query as Record<string, unknown>;
        for (const k of Object.keys(q))
          if (k !== 'bookingStatus' && k.toLowerCase() === 'bookingstatus') q.bookingStatus ??= q[k];
      }),
  },
  {
    id: 'headers.parameter-case-insensitive',
    description: 'isocountrycodes (lower case) filters like isoCountryCodes',
    breaks: ['headers.parameters.case-sensitive'],
    install: (app) =>
      beforeHandler(app, { route: DIRECTORY }, (req) => {
        const q = req.query as Record<string, unknown>;
        for (const key of Object.keys(q))
          if (key.toLowerCase() === 'isocountrycodes' && key !== 'isoCountryCodes') q.isoCountryCodes = q[key];
      }),
  },
  {
    id: 'headers.content-type-text',
    description: 'JSON answers are labelled text/plain',
    breaks: ['headers.content-type.json'],
    install: (app) =>
      rewriteReply(app, { route: DIRECTORY, status: () => true }, (_req, reply) => {
        reply.header('content-type', 'text/plain; charset=utf-8');
      }),
  },
  {
    id: 'headers.bicfi-required-on-directory',
    description: 'Country detail demands X-BicFi',
    breaks: ['headers.x-bicfi.directory-optional'],
    install: (app) => {
      app.addHook('preHandler', async (req, reply) => {
        if (req.routeOptions.url?.endsWith('/countries/:isoCountryCode') && !req.headers['x-bicfi']) {
          await reply.status(400).send({
            tppMessages: [
              { category: 'ERROR', code: 'FORMAT_ERROR', path: 'X-BicFi', text: 'header X-BicFi is required' },
            ],
          });
        }
      });
    },
  },
  {
    id: 'headers.signing-headers-unchecked',
    description: 'Signature, Digest and TPP-Signature-Certificate are ignored (stripped before the checks)',
    breaks: ['headers.digest.with-signature', 'headers.digest.format', 'headers.signing.signature-form'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        delete req.headers.signature;
        delete req.headers.digest;
        delete req.headers['tpp-signature-certificate'];
      }),
  },
  {
    id: 'headers.digest-format-unchecked',
    description: 'any Digest form is accepted when Signature is present (and signed calls are not verified)',
    // A bank that verifies nothing takes a Signature of any form too.
    breaks: ['headers.digest.format', 'headers.signing.signature-form'],
    install: (app) => {
      // The full verification (plugins/signing.ts) would refuse the rewritten Digest: off too.
      bendSigning(app, 'unverified');
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (req.headers.digest && !/^SHA-256=/.test(String(req.headers.digest)))
          req.headers.digest = `SHA-256=${'A'.repeat(43)}=`;
      });
    },
  },
  // Per-operation rules broken on one operation only.
  {
    id: 'headers.request-id-optional-on-cancellation-status',
    description:
      'Cancellation SCA status without X-Request-ID is served as if it had one (every other operation refuses it)',
    breaks: ['headers.x-request-id.required'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: CANCELLATION_STATUS }, (req) => {
        if (!req.headers['x-request-id']) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.request-id-uuid-unchecked-on-balances',
    description: 'Balances accepts any X-Request-ID, uuid or not (every other operation checks it)',
    breaks: ['headers.x-request-id.uuid'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: BALANCES }, (req) => {
        const id = req.headers['x-request-id'];
        if (typeof id === 'string' && id && !isUuid(id)) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.authorization-optional-on-country',
    description: 'Country detail without Authorization is served (every other operation refuses it)',
    breaks: ['headers.authorization.required'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: COUNTRY }, (req) => {
        if (!req.headers.authorization)
          req.headers.authorization = `Bearer ${issueToken(app, 'fault', EVERY_SCOPE).token}`;
      }),
  },
  {
    id: 'headers.unknown-token-accepted-on-city',
    description: 'City detail accepts a bearer token that was never issued (every other operation refuses it)',
    breaks: ['headers.authorization.invalid-token'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: CITY }, (req) => {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        if (m && !app.sandbox.tokens.has(m[1]))
          req.headers.authorization = `Bearer ${issueToken(app, 'fault', EVERY_SCOPE).token}`;
      }),
  },
  {
    id: 'headers.bicfi-optional-on-direct-debit-get',
    description: 'Get payment (direct debit) without X-BicFi is served for a default bank',
    breaks: ['headers.x-bicfi.required'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: DIRECT_DEBIT_GET }, (req) => {
        if (!req.headers['x-bicfi']) req.headers['x-bicfi'] = 'ESSESESS';
      }),
  },
  {
    id: 'headers.bicfi-position-rules-unchecked-on-basket-update',
    description:
      'Update PSU data (basket) checks X-BicFi as six letters and two letters or digits: the 7th (not 0 or 1) and 8th (not O) character rules are not applied',
    breaks: ['headers.x-bicfi.pattern'],
    install: (app) =>
      beforeGuard(app, { method: 'PUT', route: BASKET_AUTHORISATION }, (req) => {
        const bic = req.headers['x-bicfi'];
        if (typeof bic === 'string' && /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic))
          req.headers['x-bicfi'] = `${bic.slice(0, 6)}SS${bic.slice(8)}`;
      }),
  },
  {
    id: 'headers.consent-id-optional-on-transaction-detail',
    description: 'Transaction detail without Consent-ID is answered 200 (the other account reads refuse it)',
    breaks: ['headers.consent-id.account-reads'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'GET' || !TRANSACTION_DETAIL.test(req.routeOptions.url ?? '')) return;
        if (req.headers['consent-id']) return;
        const { transactionId } = req.params as { transactionId: string };
        return reply.status(200).send({ transactionsDetails: { transactionId } });
      }),
  },
  {
    id: 'headers.psu-ip-address-optional-on-bulk-international',
    description:
      'initiate payment of bulk-payments/international without (or with a malformed) PSU-IP-Address is served (every other service and product refuses it)',
    breaks: [
      'headers.psu-ip-address.payments',
      'headers.psu-ip-address.payments-format',
      'headers.psu-ip-address.payments-code',
    ],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: INITIATE }, (req) => {
        if (!req.url.split('?')[0].endsWith('/bulk-payments/international')) return;
        if (!isIpv4(req.headers['psu-ip-address'])) req.headers['psu-ip-address'] = '192.0.2.1';
      }),
  },
  // Optional headers refused where the specification says the operation accepts them.
  {
    id: 'headers.forwarded-psu-refused-on-consent-sca-status',
    description: 'Authorisation SCA status (consent) refuses PSU-Accept-Language, a forwarded PSU header',
    breaks: ['headers.optional.psu-forwarded'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: CONSENT_AUTHORISATION }, refuseHeader('PSU-Accept-Language')),
  },
  {
    id: 'headers.psu-id-type-refused-on-cancellation-start',
    description: 'Start cancellation authorisation refuses PSU-ID-Type',
    breaks: ['headers.optional.psu-identification'],
    install: (app) => beforeGuard(app, { method: 'POST', route: CANCELLATION_START }, refuseHeader('PSU-ID-Type')),
  },
  {
    id: 'headers.nok-redirect-refused-on-basket-create',
    description: 'create signing basket refuses TPP-Nok-Redirect-URI',
    breaks: ['headers.optional.redirect-notification'],
    install: (app) => beforeGuard(app, { method: 'POST', route: BASKETS }, refuseHeader('TPP-Nok-Redirect-URI')),
  },
  {
    id: 'headers.no-funds-preference-refused',
    description: 'initiate payment refuses TPP-Rejection-NoFunds-Preferred',
    breaks: ['headers.optional.rejection-no-funds'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: INITIATE }, refuseHeader('TPP-Rejection-NoFunds-Preferred')),
  },
  {
    id: 'headers.explicit-authorisation-refused-on-consent',
    description: 'create consent refuses TPP-Explicit-Authorisation-Preferred',
    breaks: ['headers.optional.explicit-authorisation'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: CONSENTS }, refuseHeader('TPP-Explicit-Authorisation-Preferred')),
  },
  // Formats of the forwarded PSU headers left unchecked on one operation.
  {
    id: 'headers.psu-http-method-unchecked-on-payment-status',
    description: 'Payment status ignores a PSU-Http-Method outside the five methods instead of refusing it',
    breaks: ['headers.psu-http-method.enum'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: PAYMENT_STATUS }, (req) => {
        const m = req.headers['psu-http-method'];
        if (typeof m === 'string' && !['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m))
          delete req.headers['psu-http-method'];
      }),
  },
  {
    id: 'headers.psu-device-id-unchecked-on-direct-debit-confirm',
    description: 'Confirm payment (direct debit) ignores a PSU-Device-ID that is not a uuid instead of refusing it',
    breaks: ['headers.psu-device-id.uuid'],
    install: (app) =>
      beforeGuard(app, { method: 'PUT', route: DIRECT_DEBIT_CONFIRM }, (req) => {
        const d = req.headers['psu-device-id'];
        if (typeof d === 'string' && !isUuid(d)) delete req.headers['psu-device-id'];
      }),
  },
  {
    id: 'headers.psu-geo-location-unchecked-on-consent-delete',
    description: 'Delete consent ignores a malformed PSU-Geo-Location instead of refusing it',
    breaks: ['headers.psu-geo-location.format'],
    install: (app) =>
      beforeGuard(app, { method: 'DELETE', route: CONSENT }, (req) => {
        const g = req.headers['psu-geo-location'];
        if (typeof g === 'string' && !isGeoLocation(g)) delete req.headers['psu-geo-location'];
      }),
  },
  {
    id: 'headers.forwarded-format-answered-422',
    description:
      'create consent answers a malformed PSU-Http-Method, PSU-Device-ID or PSU-Geo-Location 422 (still a refusal, not 400 FORMAT_ERROR)',
    breaks: [
      'headers.psu-http-method.enum-code',
      'headers.psu-device-id.uuid-code',
      'headers.psu-geo-location.format-code',
    ],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: CONSENTS, status: 400 }, (req, reply) => {
        const forwarded = ['psu-http-method', 'psu-device-id', 'psu-geo-location'];
        if (forwarded.some((h) => req.headers[h] !== undefined)) reply.code(422);
      }),
  },

  // Rules of every answer and of every operation broken on one operation the old checks did not try.
  {
    id: 'headers.field-case-variant-on-payment-status',
    description:
      'Payment status carries TransactionStatus beside transactionStatus (every other answer keeps the names)',
    breaks: ['headers.fields.case-sensitive'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT_STATUS }, (body: Record<string, unknown>) => {
        body.TransactionStatus = body.transactionStatus;
      }),
  },
  {
    id: 'headers.content-type-text-on-basket-status',
    description: 'Basket status answers its JSON labelled text/plain (every other answer is application/json)',
    breaks: ['headers.content-type.json'],
    install: (app) =>
      rewriteReply(app, { method: 'GET', route: BASKET_STATUS }, (_req, reply) => {
        reply.header('content-type', 'text/plain; charset=utf-8');
      }),
  },
  {
    id: 'headers.redirect-uri-optional-on-consent-authorisation-start',
    description:
      'Start authorisation (consent) with TPP-Redirect-Preferred true and no TPP-Redirect-URI is served with a redirect address of its own (initiate payment and the others refuse it)',
    breaks: ['headers.tpp-redirect-uri.when-preferred', 'headers.tpp-redirect-uri.when-preferred-code'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: CONSENT_AUTHORISATIONS }, (req) => {
        if (req.headers['tpp-redirect-preferred'] === 'true' && !req.headers['tpp-redirect-uri'])
          req.headers['tpp-redirect-uri'] = 'https://tpp.example/after-sca';
      }),
  },
  {
    id: 'headers.signed-call-refused-on-cancellation-list',
    description: 'List cancellation authorisations refuses a signed call (401 SIGNATURE_INVALID); unsigned it answers',
    breaks: ['headers.signing.signed-accepted'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: CANCELLATION_START }, (req) => {
        if (req.headers.signature !== undefined)
          throw new BgError(401, 'SIGNATURE_INVALID', 'signed calls are not supported on this operation', 'Signature');
      }),
  },
  {
    id: 'headers.psu-ip-address-unchecked-on-basket-authorisation-update',
    description:
      'Update PSU data (basket) ignores a PSU-IP-Address that is not IPv4 instead of refusing it (every other operation taking it refuses it)',
    breaks: ['headers.psu-ip-address.format'],
    install: (app) =>
      beforeGuard(app, { method: 'PUT', route: BASKET_AUTHORISATION }, (req) => {
        if (req.headers['psu-ip-address'] !== undefined && !isIpv4(req.headers['psu-ip-address']))
          delete req.headers['psu-ip-address'];
      }),
  },
  {
    id: 'headers.fx-quote-id-refused',
    description: 'an international-tp payment carrying FX-Quote-Id is refused (400 FORMAT_ERROR)',
    breaks: ['headers.fx-quote-id.international-tp'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const product = (req.params as { paymentProduct: string }).paymentProduct;
        if (product === 'international-tp' && requestHeader(req, 'FX-Quote-Id'))
          throw formatError('header FX-Quote-Id is not supported', 'FX-Quote-Id');
      }),
  },
  {
    id: 'headers.consent-id-refused-on-initiation',
    description: 'initiate payment carrying Consent-ID is refused (400 FORMAT_ERROR)',
    breaks: ['headers.consent-id.payment-initiation'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        if (requestHeader(req, 'Consent-ID'))
          throw formatError('header Consent-ID is not accepted on this operation', 'Consent-ID');
      }),
  },
  {
    id: 'headers.consent-id-refused-on-basket-creation',
    description: 'create signing basket carrying Consent-ID is refused (400 FORMAT_ERROR)',
    breaks: ['headers.consent-id.basket-creation'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: BASKETS }, (req) => {
        if (requestHeader(req, 'Consent-ID'))
          throw formatError('header Consent-ID is not accepted on this operation', 'Consent-ID');
      }),
  },
];

export default faults;
