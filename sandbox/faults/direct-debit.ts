import { isoDay, today } from '../../spec/iso8601.js';
import type { FastifyInstance } from 'fastify';
import { BgError, errorBody } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { type Fault } from './fault.js';
import { beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';

const CREATE = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const CONFIRM = /^\/iso\/payments\/confirm$/;
const PAYMENT = /^\/iso\/payments\/:paymentId$/;
const CONSENTS = /\/consent\/v1\/consents$/;

const svc = (app: FastifyInstance) => app.sandbox.directDebit;

/** Takes one named business rule out of the create validation. */
const dropCheck = (name: string) => (app: FastifyInstance) => {
  const checks = svc(app).checks;
  const at = checks.findIndex((c) => c.name === name);
  if (at < 0) throw new Error(`direct debit fault: no check "${name}"`);
  checks.splice(at, 1);
};

const dropHeader = (name: string) => (app: FastifyInstance) => {
  const list = svc(app).requiredHeaders;
  list.splice(list.indexOf(name), 1);
};

/** Bends the generated XML after it is built (the XSD check before upload still runs unless said otherwise). */
const bendFile = (app: FastifyInstance, edit: (xml: string) => string) => {
  const s = svc(app);
  const build = s.build.bind(s);
  s.build = (collections, meta) => {
    const file = build(collections, meta);
    return { ...file, xml: edit(file.xml) };
  };
};

/** Whole days from today (UTC) to an ISO date. */
const daysAhead = (date: string) =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / 86_400_000);

/** The due dates the faulty bank takes: at most this many days ahead (the baseline's, 5, is later). */
const SHORT_LEAD_DAYS = 2;

const faults: Fault[] = [
  {
    id: 'direct-debit.file-uploaded-text-without-reference',
    description:
      'the FILE_UPLOADED text of a confirm names no file ("Collection file uploaded to the debtor\'s bank."), judged under a profile that gives no reference pattern',
    breaks: ['direct-debit.confirm.file-uploaded'],
    claims: { directDebit: { files: null } } as unknown as Fault['claims'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: CONFIRM }, (b: { tppMessages?: { code?: string; text?: string }[] }) => {
        for (const m of b.tppMessages ?? [])
          if (m.code === 'FILE_UPLOADED') m.text = "Collection file uploaded to the debtor's bank.";
      }),
  },
  {
    id: 'direct-debit.non-recurring-created-accp',
    description:
      'a direct debit whose sequenceType is not RCUR (FRST, OOFF, FNAL) is answered transactionStatus ACCP on create, not RCVD (an RCUR one still RCVD)',
    breaks: ['direct-debit.create.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: { transactionStatus?: string }, req) => {
        const seq = (req.body as { sequenceType?: unknown } | undefined)?.sequenceType;
        if (seq !== 'RCUR' && b.transactionStatus === 'RCVD') b.transactionStatus = 'ACCP';
      }),
  },
  {
    id: 'direct-debit.create-status-not-rcvd',
    description: 'create answers transactionStatus ACTC instead of RCVD',
    breaks: ['direct-debit.create.response', 'direct-debit.flow.section-h'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: CREATE },
        (b: { transactionStatus?: string }) => void (b.transactionStatus = 'ACTC'),
      ),
  },
  {
    id: 'direct-debit.confirm-link-wrong',
    description: 'create answers a confirmPayment link to /iso/payments/confirmation',
    breaks: ['direct-debit.create.links', 'direct-debit.flow.section-h'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: { _links?: { confirmPayment?: { href: string } } }) => {
        if (b._links?.confirmPayment) b._links.confirmPayment.href = '/iso/payments/confirmation';
      }),
  },
  {
    id: 'direct-debit.created-without-links',
    description: 'create answers no _links (listed, not required: a completeness warning)',
    breaks: ['direct-debit.create.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: { _links?: unknown }) => void delete b._links),
  },
  {
    id: 'direct-debit.created-200',
    description: 'create answers 200 instead of 201',
    breaks: ['direct-debit.create.status-201'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: CREATE, status: 201 }, (_req, reply) => void reply.status(200)),
  },
  {
    id: 'direct-debit.private-scope-accepted',
    description: 'a paymentinitiation private token is accepted for direct debit',
    breaks: ['direct-debit.auth.scope-corporate', 'direct-debit.auth.scope-corporate-code'],
    install: (app) => {
      svc(app).assertCorporate = () => undefined;
    },
  },
  {
    id: 'direct-debit.non-eur-accepted',
    description: 'a collection in another currency than EUR is accepted',
    breaks: ['direct-debit.create.currency-eur', 'direct-debit.create.refusal-code'],
    install: dropCheck('currency'),
  },
  {
    id: 'direct-debit.b2b-accepted',
    description: 'a localInstrumentCode other than CORE is accepted',
    breaks: ['direct-debit.create.local-instrument-core', 'direct-debit.create.refusal-code'],
    install: dropCheck('local-instrument'),
  },
  {
    id: 'direct-debit.foreign-debtor-accepted',
    description: 'a debtor IBAN outside the Netherlands is accepted',
    breaks: ['direct-debit.create.debtor-nl', 'direct-debit.create.refusal-code'],
    install: dropCheck('debtor-country'),
  },
  {
    id: 'direct-debit.dates-unchecked',
    description: 'requestedExecutionDate and dateOfSignature are not checked to be ISO dates',
    breaks: ['direct-debit.create.dates-iso', 'direct-debit.create.refusal-code'],
    install: dropCheck('dates'),
  },
  {
    id: 'direct-debit.iban-check-digits-unchecked',
    description: 'IBAN check digits are not checked',
    breaks: ['direct-debit.create.iban-check-digits'],
    install: dropCheck('iban'),
  },
  {
    id: 'direct-debit.bic-unchecked',
    description: 'creditorAgent and debtorAgent are not checked to be BICs',
    breaks: ['direct-debit.create.bic', 'direct-debit.create.bic-code'],
    install: dropCheck('bic'),
  },
  {
    id: 'direct-debit.bic-shape-unchecked',
    description:
      'creditorAgent and debtorAgent are checked only to be upper-case letters and digits: a 9 or 6 character value, or digits among the first six, are accepted as a BIC',
    breaks: ['direct-debit.create.bic', 'direct-debit.create.bic-code'],
    install: (app) => {
      // The check objects are shared between sandboxes: the list entry is replaced, not edited.
      const checks = svc(app).checks;
      const at = checks.findIndex((c) => c.name === 'bic');
      if (at < 0) throw new Error('direct debit fault: no check "bic"');
      checks[at] = {
        name: 'bic',
        run: (p) =>
          (['creditorAgent', 'debtorAgent'] as const)
            .filter((k) => p[k] !== undefined && !/^[A-Z0-9]+$/.test(p[k]!))
            .map((k) => ({ path: k, text: `"${p[k]}" is not a valid BIC` }))[0],
      };
    },
  },
  {
    id: 'direct-debit.creditor-id-unchecked',
    description: 'the SEPA creditor identifier check digits are not checked',
    breaks: ['direct-debit.create.creditor-id'],
    install: dropCheck('creditor-id'),
  },
  {
    id: 'direct-debit.sequence-type-unchecked',
    description: 'any sequenceType is accepted',
    breaks: ['direct-debit.create.sequence-type'],
    install: dropCheck('sequence-type'),
  },
  {
    id: 'direct-debit.sequence-type-rcur-only',
    description: 'only sequenceType RCUR (the value the specification shows) is accepted',
    // The file checks of the other sequence types cannot be reached: they are blocked by this one.
    breaks: ['direct-debit.create.sequence-types-accepted'],
    install: (app) =>
      svc(app).checks.push({
        name: 'rcur-only',
        run: (p) =>
          p.sequenceType !== 'RCUR'
            ? { path: 'sequenceType', text: `sequenceType: only RCUR is supported, got "${p.sequenceType}"` }
            : undefined,
      }),
  },
  {
    id: 'direct-debit.mandate-optional',
    description: 'a collection without mandateId or dateOfSignature is accepted (placeholders filled in)',
    breaks: ['direct-debit.create.mandate'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const m = (req.body as { mandateRelatedInformation?: Record<string, unknown> } | undefined)
          ?.mandateRelatedInformation;
        if (m && typeof m === 'object') {
          m.mandateId ??= 'NOTPROVIDED';
          m.dateOfSignature ??= today();
        }
      }),
  },
  {
    id: 'direct-debit.psu-ip-address-optional',
    description: 'create is accepted without PSU-IP-Address',
    breaks: ['direct-debit.create.psu-ip-address'],
    install: dropHeader('PSU-IP-Address'),
  },
  {
    id: 'direct-debit.psu-corporate-id-optional',
    description: 'create is accepted without PSU-Corporate-ID',
    breaks: ['direct-debit.create.psu-corporate-id'],
    install: dropHeader('PSU-Corporate-ID'),
  },
  {
    id: 'direct-debit.confirm-without-file-uploaded',
    description: 'confirm answers a tppMessage with code OK instead of FILE_UPLOADED',
    breaks: ['direct-debit.confirm.file-uploaded', 'direct-debit.flow.section-h'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: CONFIRM }, (b: { tppMessages?: { code?: string }[] }) => {
        for (const m of b.tppMessages ?? []) m.code = 'OK';
      }),
  },
  {
    id: 'direct-debit.consent-id-optional',
    description: 'confirm without Consent-ID collects anyway',
    breaks: ['direct-debit.confirm.consent-required', 'direct-debit.confirm.consent-required-code'],
    install: (app) => {
      const s = svc(app);
      const consentFor = s.consentFor.bind(s);
      s.consentFor = (req, consents) => (req.headers['consent-id'] ? consentFor(req, consents) : undefined);
    },
  },
  {
    id: 'direct-debit.any-consent-type-accepted',
    description: 'confirm accepts an account-information consent',
    breaks: [
      'direct-debit.confirm.consent-direct-debit',
      'direct-debit.confirm.consent-invalid-code',
      'headers.x-consent-type.direct-debit',
    ],
    install: (app) => {
      const s = svc(app);
      const problem = s.consentProblem.bind(s);
      s.consentProblem = (c) => problem({ ...c, type: 'sepaDirectDebit' });
    },
  },
  {
    id: 'direct-debit.unauthorised-consent-accepted',
    description: 'confirm accepts a direct debit consent whose SCA is not done',
    breaks: ['direct-debit.confirm.consent-authorised', 'direct-debit.confirm.consent-invalid-code'],
    install: (app) => {
      const s = svc(app);
      const problem = s.consentProblem.bind(s);
      s.consentProblem = (c) => problem(c.status === 'received' ? { ...c, status: 'valid' } : c);
    },
  },
  {
    id: 'direct-debit.confirm-codes-generic',
    description: 'confirm refusals for consent, unknown and confirmed payments all answer 400 FORMAT_ERROR',
    breaks: [
      'direct-debit.confirm.consent-invalid-code',
      'direct-debit.confirm.payment-unknown',
      'direct-debit.confirm.already-confirmed',
    ],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'PUT', route: CONFIRM, status: (s) => s >= 400 },
        (b: { tppMessages?: { code?: string; text?: string; path?: string }[] }, _req, reply) => {
          const m = b.tppMessages?.[0];
          if (!m || !['CONSENT_INVALID', 'RESOURCE_UNKNOWN', 'STATUS_INVALID'].includes(m.code ?? '')) return undefined;
          reply.status(400);
          return errorBody(new BgError(400, 'FORMAT_ERROR', m.text ?? 'invalid request', m.path));
        },
      ),
  },
  {
    id: 'direct-debit.get-drops-debtor-name',
    description: 'get payment leaves out debtorName',
    breaks: ['direct-debit.get.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Record<string, unknown>) => void delete b.debtorName),
  },
  {
    id: 'direct-debit.get-unknown-empty-200',
    description: 'get payment for an unknown paymentId answers 200 with an empty object',
    breaks: ['direct-debit.get.unknown'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT, status: 404 }, (_b, _req, reply) => (reply.status(200), {})),
  },
  {
    id: 'direct-debit.mandate-check-skipped',
    description: 'the rejected test mandate is collected like any other (never RJCT)',
    breaks: ['direct-debit.get.rejected-mandate', 'direct-debit.flow.section-h'],
    install: (app) => {
      svc(app).mandateCheck = () => 'ACCP';
    },
  },
  {
    id: 'direct-debit.consent-type-ignored',
    description: 'create consent ignores X-Consent-Type sepaDirectDebit (an account-information consent is made)',
    // The confirm refusals answered otherwise (CONSENT_INVALID for the consent, not the payment's
    // code) are blocked by the valid confirm, refused too: they prove nothing of their own rules here.
    breaks: [
      'headers.x-consent-type.direct-debit',
      'direct-debit.flow.section-h',
      'direct-debit.confirm.file-uploaded',
    ],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CONSENTS }, (req) => {
        if (req.headers['x-consent-type'] === 'sepaDirectDebit') delete req.headers['x-consent-type'];
      }),
  },
  {
    id: 'direct-debit.refused-confirm-collects',
    description:
      'a confirm refused for its consent has already built and uploaded the file with its payments (they leave RCVD; a later valid confirm finds them collected)',
    breaks: ['direct-debit.confirm.refused-no-effect', 'headers.x-consent-type.direct-debit'],
    install: (app) =>
      app.addHook('preValidation', async (req) => {
        if (req.method !== 'PUT' || !CONFIRM.test(req.routeOptions.url ?? '') || !req.token) return;
        const s = svc(app);
        const id = requestHeader(req, 'Consent-ID');
        const consent = id ? app.sandbox.consents.get(id) : undefined;
        if (consent && consent.clientId === req.token.clientId && !s.consentProblem(consent)) return;
        const ids = (req.body as { paymentIds?: unknown } | undefined)?.paymentIds;
        if (!Array.isArray(ids) || ids.length === 0) return;
        try {
          const payments = s.confirmable(ids as string[], req.token.clientId);
          await s.upload(payments, { clientId: req.token.clientId, consentId: id ?? '', initiatingParty: 'sandbox' });
        } catch {
          /* unknown or already collected: the route refuses them as it does */
        }
      }),
  },
  {
    id: 'direct-debit.file-nboftxs-wrong',
    description: 'the pain.008 file counts one transaction too many in GrpHdr/NbOfTxs (still XSD-valid)',
    breaks: ['direct-debit.file.totals'],
    install: (app) =>
      bendFile(app, (xml) =>
        xml.replace(
          /(<GrpHdr>[\s\S]*?<NbOfTxs>)(\d+)(<\/NbOfTxs>)/,
          (_m, a: string, n: string, b: string) => `${a}${Number(n) + 1}${b}`,
        ),
      ),
  },
  {
    id: 'direct-debit.file-ctrlsum-wrong',
    description: 'the pain.008 file GrpHdr/CtrlSum is one cent off (still XSD-valid)',
    breaks: ['direct-debit.file.totals'],
    install: (app) =>
      bendFile(app, (xml) =>
        xml.replace(
          /(<GrpHdr>[\s\S]*?<CtrlSum>)([\d.]+)(<\/CtrlSum>)/,
          (_m, a: string, sum: string, b: string) => `${a}${(Math.round(Number(sum) * 100) + 1) / 100}${b}`,
        ),
      ),
  },
  {
    id: 'direct-debit.file-collection-date-next-day',
    description:
      'the pain.008 file asks for every collection a day after its requestedExecutionDate (ReqdColltnDt; still XSD-valid)',
    breaks: ['direct-debit.file.collection-date'],
    install: (app) =>
      bendFile(app, (xml) =>
        xml.replace(/(<ReqdColltnDt>)(\d{4}-\d{2}-\d{2})(<\/ReqdColltnDt>)/g, (_m, a: string, d: string, b: string) => {
          const next = new Date(`${d}T00:00:00Z`);
          next.setUTCDate(next.getUTCDate() + 1);
          return `${a}${isoDay(next)}${b}`;
        }),
      ),
  },
  {
    id: 'direct-debit.file-currency-sek',
    description: 'the pain.008 file instructs every collection in SEK (InstdAmt Ccy="SEK"; still XSD-valid)',
    breaks: ['direct-debit.file.currency-eur'],
    install: (app) => bendFile(app, (xml) => xml.replace(/(<InstdAmt\b[^>]*\bCcy=")EUR(")/g, '$1SEK$2')),
  },
  {
    id: 'direct-debit.file-not-xsd-valid',
    description: 'the pain.008 file says PmtMtd TRF and is uploaded without the XSD check',
    breaks: ['direct-debit.file.pain008-valid'],
    install: (app) => {
      bendFile(app, (xml) => xml.replace(/<PmtMtd>DD<\/PmtMtd>/g, '<PmtMtd>TRF</PmtMtd>'));
      svc(app).xmlProblems = async () => [];
    },
  },
  {
    id: 'direct-debit.baseline-declined-as-lead-time',
    description: `a collection due more than ${SHORT_LEAD_DAYS} days ahead, the creditor's own body (due in 5) included, is declined with 400 EXECUTION_DATE_INVALID, within the lead time the profile claims (directDebit.leadTimeDays 14, the default): a must-accept due date refused with the business code, and a decline beside a refused baseline`,
    // Refusing the baseline, every check that makes it fails (the SHOULDs warn) or is blocked.
    breaks: [
      'direct-debit.create.response',
      'direct-debit.create.status-201',
      'direct-debit.create.sequence-types-accepted',
    ],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const date = (req.body as { requestedExecutionDate?: unknown } | undefined)?.requestedExecutionDate;
        if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && daysAhead(date) > SHORT_LEAD_DAYS)
          throw new BgError(400, 'EXECUTION_DATE_INVALID', `${date} is too far ahead`, 'requestedExecutionDate');
      }),
  },
];

export default faults;
