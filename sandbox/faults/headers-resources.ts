import { isIpv4 } from '../../spec/header-forms.js';
import { BIC } from '../plugins/guard.js';
import { type Fault } from './fault.js';
import { beforeGuard, beforeHandler, rewriteReply } from '../hooks.js';

// The common header rules broken on one operation or one area's operations only: the basket's SCA
// status read (section F 3 on a basket), a row of the operations table the rules judge as they judge
// every other; X-BicFi and PSU-Corporate-ID on the consent operations; X-Consent-Type on confirm
// (direct debit); PSU-IP-Address and TPP-Redirect-URI on initiate payment.

const BASKET_SCA_STATUS =
  /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;

const ANY_CONSENT = /^\/psd2\/consent\//;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

const faults: Fault[] = [
  {
    id: 'headers.basket-sca-status-not-labelled-json',
    description:
      "the SCA status read of a basket's authorisation answers its JSON labelled text/plain (every other answer is application/json)",
    breaks: ['headers.content-type.json'],
    install: (app) =>
      rewriteReply(app, { method: 'GET', route: BASKET_SCA_STATUS }, (_req, reply) => {
        reply.header('Content-Type', 'text/plain; charset=utf-8');
      }),
  },
  {
    id: 'headers.bicfi-not-required-on-consents',
    description: 'consent operations without X-BicFi are served for a default bank',
    breaks: ['headers.x-bicfi.required'],
    install: (app) =>
      beforeGuard(app, { route: ANY_CONSENT }, (req) => {
        if (!req.headers['x-bicfi']) req.headers['x-bicfi'] = 'ESSESESS';
      }),
  },
  {
    id: 'headers.bicfi-pattern-unchecked-on-consents',
    description: 'consent operations accept any X-BicFi',
    breaks: ['headers.x-bicfi.pattern'],
    install: (app) =>
      beforeGuard(app, { route: ANY_CONSENT }, (req) => {
        const bic = req.headers['x-bicfi'];
        if (typeof bic === 'string' && bic && !BIC.test(bic)) req.headers['x-bicfi'] = 'ESSESESS';
      }),
  },
  {
    id: 'headers.corporate-id-accepted-in-private',
    description: 'PSU-Corporate-ID is ignored instead of rejected in a private context',
    breaks: ['headers.psu-corporate-id.context'],
    install: (app) =>
      beforeHandler(app, { route: ANY_CONSENT }, (req) => {
        if (!req.token?.scopes.has('corporate')) delete req.headers['psu-corporate-id'];
      }),
  },
  {
    id: 'headers.x-consent-type-by-context',
    description:
      'confirm takes any authorised consent of the corporate context as a direct debit consent: X-Consent-Type makes no difference there',
    breaks: ['headers.x-consent-type.direct-debit'],
    install: (app) => {
      const s = app.sandbox.directDebit;
      const problem = s.consentProblem.bind(s);
      s.consentProblem = (c) => problem(c.context === 'corporate' ? { ...c, type: 'sepaDirectDebit' } : c);
    },
  },
  {
    id: 'headers.psu-ip-address-not-required',
    description: 'initiate payment without (or with a malformed) PSU-IP-Address is served as if it had one',
    breaks: [
      'headers.psu-ip-address.payments',
      'headers.psu-ip-address.payments-format',
      'headers.psu-ip-address.payments-code',
    ],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: INITIATE }, (req) => {
        const ip = req.headers['psu-ip-address'];
        if (!isIpv4(ip)) req.headers['psu-ip-address'] = '192.0.2.1';
      }),
  },
  {
    id: 'headers.redirect-uri-not-mandated',
    description: 'initiate payment with TPP-Redirect-Preferred true and no TPP-Redirect-URI is accepted',
    breaks: ['headers.tpp-redirect-uri.when-preferred', 'headers.tpp-redirect-uri.when-preferred-code'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: INITIATE }, (req) => {
        if (req.headers['tpp-redirect-preferred'] === 'true' && !req.headers['tpp-redirect-uri'])
          req.headers['tpp-redirect-uri'] = 'https://tpp.example/callback';
      }),
  },
];

export default faults;
