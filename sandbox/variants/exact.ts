import type { FastifyRequest } from 'fastify';
import { formatError } from '../errors.js';
import { asUuid, beforeGuard, beforeHandler, rewriteJson } from '../hooks.js';
import type { Variant } from './variant.js';

/*
 * Banks that use what a check's sentence leaves open, where the check once asked for more than its
 * words: empty directory lists, lower-case country codes, listed links and transaction ids left
 * out, a Digest no signature covers ignored, an X-Request-ID read leniently, ISO 8601's basic dates
 * and a lower-case code taken, Berlin Group's address limits and the EPC rules of a collection
 * applied. The suite must stay conformant under each.
 */

type Body = Record<string, unknown>;

const ASPSPS = /\/aspspinformation\/v1\/aspsps$/;
const CITIES = /\/aspspinformation\/v1\/cities$/;
const CITY = /\/cities\/:cityId$/;
const COUNTRIES = /\/aspspinformation\/v1\/countries$/;
const COUNTRY = /\/countries\/:isoCountryCode$/;
const ACCOUNT_LIST = /\/accountinformation\/v1\/accounts$/;
const TRANSACTIONS = /\/accounts\/:accountId\/transactions$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const COLLECT = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const ANY = /./;

const body = (req: FastifyRequest) => (req.body ?? {}) as Body;
const lower = (e: Body) => {
  if (typeof e.isoCountryCode === 'string') e.isoCountryCode = e.isoCountryCode.toLowerCase();
};
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const extended = (v: unknown) => (typeof v === 'string' ? v.replace(BASIC_DATE, '$1-$2-$3') : v);

/** The payments of an initiation body: itself, or each of a bulk's. */
const paymentsOf = (b: Body): Body[] => (Array.isArray(b.payments) ? (b.payments as Body[]) : [b]);

const variants: Variant[] = [
  {
    id: 'directory.lists-empty',
    description: 'List banks, List cities and List countries answer empty arrays',
    allows: '| List banks | GET | `aspsps` array | (Endpoints > Directory: an array, no minimum given)',
    concerns: ['directory.aspsps.list-shape', 'directory.cities.list-shape', 'directory.countries.list-shape'],
    warns: [],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: ASPSPS }, (b: Body) => void (b.aspsps = []));
      rewriteJson(app, { method: 'GET', route: CITIES }, (b: Body) => void (b.cities = []));
      rewriteJson(app, { method: 'GET', route: COUNTRIES }, (b: Body) => void (b.countries = []));
    },
  },
  {
    id: 'directory.country-codes-lower-case',
    description:
      'cities and countries give isoCountryCode in lower case ("se"), and take either case in the isoCountryCodes filter and the country path',
    allows:
      '| isoCountryCode | string | two letters | (Resources > City, Country: two letters, no case given; the suite\'s own code-format check: "Lower case is still two letters")',
    concerns: [
      'directory.cities.list-shape',
      'directory.countries.list-shape',
      'directory.city.detail',
      'directory.country.detail',
    ],
    warns: [],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: CITIES }, (b: { cities?: Body[] }) => b.cities?.forEach(lower));
      rewriteJson(app, { method: 'GET', route: CITY }, (b: Body) => lower(b));
      rewriteJson(app, { method: 'GET', route: COUNTRIES }, (b: { countries?: Body[] }) => b.countries?.forEach(lower));
      rewriteJson(app, { method: 'GET', route: COUNTRY }, (b: Body) => lower(b));
      beforeHandler(app, { method: 'GET', route: /\/aspspinformation\/v1\/(cities|countries|aspsps)/ }, (req) => {
        const q = req.query as Record<string, unknown>;
        const up = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
        if (q.isoCountryCodes !== undefined)
          q.isoCountryCodes = Array.isArray(q.isoCountryCodes) ? q.isoCountryCodes.map(up) : up(q.isoCountryCodes);
        const p = req.params as { isoCountryCode?: string };
        if (typeof p.isoCountryCode === 'string' && /^[a-z]{2}$/.test(p.isoCountryCode))
          p.isoCountryCode = p.isoCountryCode.toUpperCase();
      });
    },
  },
  {
    id: 'accounts.links-left-out',
    description: 'List accounts gives no _links, and a transaction list no transactions._links.account',
    allows:
      '| Account | resourceId, iban, currency (`XXX` for a multicurrency account), product, cashAccountType, name, clearingNumber, `_links` (`balances`, `transactions`) | (Resources > Account: listed, no rule that they are present)',
    concerns: [
      'accounts.account.links',
      'accounts.transactions.shape',
      'accounts.transactions.account-link',
      'accounts.list.complete',
    ],
    warns: ['accounts.list.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: ACCOUNT_LIST }, (b: { accounts?: Body[] }) =>
        b.accounts?.forEach((a) => delete a._links),
      );
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: { transactions?: { _links?: Body } }) => {
        delete b.transactions?._links?.account;
      });
    },
  },
  {
    id: 'accounts.transactions-without-id',
    description: 'the entries of a transaction list carry no transactionId',
    allows:
      '| Transaction | transactionId, creditorName, ... | (Resources > Transaction: listed, no rule that it is present)',
    concerns: ['accounts.transaction.details', 'accounts.transactions.shape', 'accounts.transactions.complete'],
    warns: ['accounts.transactions.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: { transactions?: Record<string, unknown> }) => {
        for (const list of ['booked', 'pending'])
          for (const t of (b.transactions?.[list] as Body[] | undefined) ?? []) delete t.transactionId;
      }),
  },
  {
    id: 'headers.digest-ignored-when-unsigned',
    description: 'a Digest on a call without Signature is ignored (the call is served as if it carried none)',
    allows:
      '| Digest | string | form `SHA-256=<base64>`; present if and only if Signature is present | (Common request headers: tells the TPP when to send it)',
    concerns: ['headers.digest.with-signature', 'headers.digest.format'],
    warns: [],
    install: (app) =>
      beforeGuard(app, { route: ANY }, (req) => {
        if (req.headers.signature === undefined) delete req.headers.digest;
      }),
  },
  {
    id: 'headers.x-request-id-read-leniently',
    description: 'X-Request-ID is read as a lenient lookup reads a uuid: hyphens optional, braces allowed',
    allows:
      '| X-Request-ID | string(uuid) | required on every operation; unique per call, set by the caller | (Common request headers: a uuid, in whatever form a reader takes one)',
    concerns: ['headers.x-request-id.uuid', 'headers.x-request-id.required'],
    warns: [],
    install: (app) =>
      beforeGuard(app, { route: ANY }, (req) => {
        const id = req.headers['x-request-id'];
        if (typeof id === 'string') req.headers['x-request-id'] = asUuid(id);
      }),
  },
  {
    id: 'payments.iso-basic-dates-accepted',
    description:
      "dates in ISO 8601's basic form (20991231) are taken as the extended form (2099-12-31), on payments and collections",
    allows:
      '| requestedExecutionDate | string | no | ISO date | (Resources > Payment initiation); | requestedExecutionDate | string(date) | ISO 8601 | (SEPA direct debit): ISO 8601 has both forms',
    concerns: ['payments.execution-date.format', 'direct-debit.create.dates-iso'],
    warns: [],
    install: (app) => {
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        for (const field of ['requestedExecutionDate', 'startDate', 'endDate'])
          if (body(req)[field] !== undefined) body(req)[field] = extended(body(req)[field]);
      });
      beforeHandler(app, { method: 'POST', route: COLLECT }, (req) => {
        const b = body(req);
        b.requestedExecutionDate = extended(b.requestedExecutionDate);
        const m = b.mandateRelatedInformation as Body | undefined;
        if (m) m.dateOfSignature = extended(m.dateOfSignature);
      });
    },
  },
  {
    id: 'direct-debit.local-instrument-any-case',
    description: 'localInstrumentCode is read in any case ("core" is CORE)',
    allows:
      '| localInstrumentCode | string(enum) | only `CORE` is supported | (Resources > SEPA direct debit payment: the code, no case rule)',
    concerns: ['direct-debit.create.local-instrument-core'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: COLLECT }, (req) => {
        const b = body(req);
        if (typeof b.localInstrumentCode === 'string') b.localInstrumentCode = b.localInstrumentCode.toUpperCase();
      }),
  },
  {
    id: 'payments.address-berlin-group-limits',
    description:
      "a payment whose creditorAddress.buildingNumber or postalCode is over 16 characters (Berlin Group's limits) is refused with 400 FORMAT_ERROR",
    allows:
      '| creditorAddress | object (address) | no | `street`, `buildingNumber`, `city`, `postalCode`, `country` | (Resources > Payment initiation: no limit given); Berlin Group limits buildingNumber and postCode to 16, as the suite applies to the direct debit address',
    concerns: ['payments.text.character-set', 'payments.initiate.response', 'payments.read.fields'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        for (const p of paymentsOf(body(req))) {
          const a = (p.creditorAddress ?? {}) as Body;
          for (const field of ['buildingNumber', 'postalCode'])
            if (typeof a[field] === 'string' && (a[field] as string).length > 16)
              throw formatError(`creditorAddress.${field} is over 16 characters`, `creditorAddress.${field}`);
        }
      }),
  },
  {
    id: 'direct-debit.epc-rules',
    description:
      'a collection whose mandateId starts or ends with "/" or holds "//", or whose remittance lines hold over 140 characters in all, is refused with 400 FORMAT_ERROR (the EPC rules)',
    allows:
      '| mandateRelatedInformation | object | `mandateId` (string), `dateOfSignature` (date) |, | remittanceInformationUnstructuredArray | array of string | free text | (Resources > SEPA direct debit payment: no rule given; the EPC SDD rulebook: an identifier neither starts nor ends with "/" nor holds "//", the unstructured remittance information is 140 characters)',
    concerns: ['direct-debit.create.response', 'direct-debit.get.fields', 'direct-debit.text.character-set'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: COLLECT }, (req) => {
        const b = body(req);
        const id = (b.mandateRelatedInformation as Body | undefined)?.mandateId;
        if (typeof id === 'string' && (id.startsWith('/') || id.endsWith('/') || id.includes('//')))
          throw formatError('mandateId breaks the EPC identifier rules', 'mandateRelatedInformation.mandateId');
        const lines = b.remittanceInformationUnstructuredArray;
        if (Array.isArray(lines) && lines.join('').length > 140)
          throw formatError(
            'the remittance information is over 140 characters',
            'remittanceInformationUnstructuredArray',
          );
      }),
  },
];

export default variants;
