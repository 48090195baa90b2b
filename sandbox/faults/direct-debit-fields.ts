import type { FastifyInstance } from 'fastify';
import { formatError } from '../errors.js';
import { type Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';

const CREATE = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const PAYMENT = /^\/iso\/payments\/:paymentId$/;

type Body = Record<string, unknown>;
type Address = Record<string, unknown>;

const svc = (app: FastifyInstance) => app.sandbox.directDebit;

/** Every string in a JSON value, edited. */
const mapStrings = (v: unknown, edit: (s: string) => string): unknown =>
  typeof v === 'string'
    ? edit(v)
    : Array.isArray(v)
      ? v.map((x) => mapStrings(x, edit))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, edit)]))
        : v;

/** The text fields of a direct debit body (names, addresses, remittance lines). */
const TEXT_FIELDS = [
  'creditorName',
  'creditorAgentName',
  'debtorName',
  'debtorAgentName',
  'creditorAddress',
  'debtorAddress',
  'remittanceInformationUnstructuredArray',
];

/** Read-back of the parties' addresses and agents, the character set of text fields, the consent's id and lifetime. */
const faults: Fault[] = [
  {
    id: 'direct-debit.read-drops-debtor-agent',
    description: 'get payment leaves out debtorAgent',
    breaks: ['direct-debit.read-back.debtor-agent'],
    install: (app) => rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => void delete b.debtorAgent),
  },
  {
    id: 'direct-debit.read-creditor-address-as-string',
    description: 'get payment answers creditorAddress as one string ("street number, postcode city, country")',
    // The character set check reads creditorAddress.street and .city back: a string has neither.
    breaks: ['direct-debit.read-back.creditor-address', 'direct-debit.text.character-set'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        const a = b.creditorAddress as Address | undefined;
        if (a && typeof a === 'object')
          b.creditorAddress = `${a.street ?? ''} ${a.buildingNumber ?? ''}, ${a.postalCode ?? ''} ${a.city ?? ''}, ${a.country}`;
      }),
  },
  {
    id: 'direct-debit.read-creditor-agent-name-changed',
    description:
      'get payment answers the bank\'s own name for the creditor agent ("Bank <BIC>") instead of creditorAgentName as sent',
    // The character set check reads creditorAgentName back byte for byte.
    breaks: ['direct-debit.read-back.creditor-agent-name', 'direct-debit.text.character-set'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        if (typeof b.creditorAgentName === 'string') b.creditorAgentName = `Bank ${String(b.creditorAgent)}`;
      }),
  },
  {
    id: 'direct-debit.read-debtor-agent-name-as-bic',
    description: 'get payment answers debtorAgentName with the BIC of debtorAgent',
    // The character set check reads debtorAgentName back byte for byte.
    breaks: ['direct-debit.read-back.debtor-agent-name', 'direct-debit.text.character-set'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        if (typeof b.debtorAgentName === 'string') b.debtorAgentName = String(b.debtorAgent);
      }),
  },
  {
    id: 'direct-debit.read-debtor-address-loses-postcode',
    description: 'get payment answers debtorAddress without its postalCode',
    breaks: ['direct-debit.read-back.debtor-address'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        const a = b.debtorAddress as Address | undefined;
        if (a && typeof a === 'object') delete a.postalCode;
      }),
  },
  {
    id: 'direct-debit.read-debtor-address-as-lines',
    description: 'get payment answers debtorAddress as an array of address lines (neither string nor object)',
    breaks: ['direct-debit.read-back.debtor-address'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        const a = b.debtorAddress as Address | undefined;
        if (a && typeof a === 'object')
          b.debtorAddress = [
            `${a.street ?? ''} ${a.buildingNumber ?? ''}`,
            `${a.postalCode ?? ''} ${a.city ?? ''}`,
            a.country,
          ];
      }),
  },
  {
    id: 'direct-debit.read-drops-question-mark',
    description: 'get payment drops "?" from the text fields of a direct debit',
    breaks: ['direct-debit.text.character-set'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => {
        for (const k of TEXT_FIELDS) if (k in b) b[k] = mapStrings(b[k], (s) => s.replace(/\?/g, ''));
      }),
  },
  {
    id: 'direct-debit.plus-sign-refused',
    description: 'create refuses a direct debit whose text fields carry "+" (400 FORMAT_ERROR)',
    breaks: ['direct-debit.text.character-set'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = req.body as Body | undefined;
        if (!b || typeof b !== 'object') return;
        const field = TEXT_FIELDS.find((k) => JSON.stringify(b[k] ?? '').includes('+'));
        if (field) throw formatError(`${field}: the character "+" is not allowed`, field);
      }),
  },
  {
    id: 'direct-debit.consent-id-not-uuid',
    description: 'a direct debit consent gets an id of the form DDC<32 hex digits> instead of a uuid',
    breaks: ['direct-debit.consent.id-uuid'],
    install: (app) => {
      const store = app.sandbox.consents;
      const set = store.set.bind(store);
      // The create route reads consent.consentId after storing it: the new id is the one answered.
      store.set = (id, c) => {
        if (c.type !== 'sepaDirectDebit' || c.consentId !== id || !id.includes('-')) return set(id, c);
        c.consentId = `DDC${id.replace(/-/g, '').toUpperCase()}`;
        return set(c.consentId, c);
      };
    },
  },
  {
    id: 'direct-debit.consent-used-up',
    description: 'a direct debit consent expires once a confirm has used it',
    // A second confirm of the same payment under the same consent then meets the expired consent
    // (401 CONSENT_EXPIRED) before the payment's status (409 STATUS_INVALID).
    breaks: ['direct-debit.consent.long-lived', 'direct-debit.confirm.already-confirmed'],
    install: (app) => {
      const s = svc(app);
      const upload = s.upload.bind(s);
      s.upload = async (payments, o) => {
        const file = await upload(payments, o);
        const c = app.sandbox.consents.get(o.consentId);
        if (c) c.status = 'expired';
        return file;
      };
    },
  },
];

export default faults;
