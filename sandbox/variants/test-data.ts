import { createHash } from 'node:crypto';
import type { ProductAccounts } from '../../profiles/profile.schema.js';
import { ibanNote, mod97 } from '../../spec/iso13616.js';
import { accountsOf } from '../accounts/service.js';
import type { PsuBank } from '../seed/accounts.js';
import { formatError } from '../errors.js';
import { beforeHandler } from '../hooks.js';
import type { Variant } from './variant.js';

/*
 * Another bank's sandbox: test accounts and a pace of its own. A profile written for it declares
 * its accounts (payments.accounts); the suite must send those, and stay conformant.
 */

type Body = Record<string, unknown>;

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

/** The test accounts of a bank whose sandbox holds EUR accounts only: its debtors, and the creditors it pays. */
export const EUR_DEBTORS = ['FI2112345600000785', 'DE89370400440532013000'] as const;

/** The payments.accounts a profile of that bank declares: every product from an EUR account, in EUR. */
export const EUR_TEST_ACCOUNTS: Record<
  'sepa-credit-transfers' | 'domestic' | 'international' | 'international-tp' | 'swedish-giro',
  ProductAccounts
> = {
  'sepa-credit-transfers': {
    debtorAccount: { iban: EUR_DEBTORS[0], currency: 'EUR' },
    creditorAccount: { iban: 'NL91ABNA0417164300', currency: 'EUR' },
    creditorAgent: 'ABNANL2AXXX',
    currency: 'EUR',
  },
  domestic: {
    debtorAccount: { iban: EUR_DEBTORS[0], currency: 'EUR' },
    creditorAccount: { iban: 'FI2112345600000785', currency: 'EUR' },
    currency: 'EUR',
  },
  international: {
    debtorAccount: { iban: EUR_DEBTORS[1], currency: 'EUR' },
    creditorAccount: { iban: 'GB29NWBK60161331926819' },
    creditorAgent: 'NWBKGB2LXXX',
    currency: 'EUR',
  },
  'international-tp': {
    debtorAccount: { iban: EUR_DEBTORS[1], currency: 'EUR' },
    creditorAccount: { iban: 'GB29NWBK60161331926819' },
    creditorAgent: 'NWBKGB2LXXX',
    currency: 'EUR',
  },
  'swedish-giro': {
    debtorAccount: { iban: EUR_DEBTORS[0], currency: 'EUR' },
    currency: 'EUR',
  },
};

/** The debtor's IBAN and every instructed currency of an initiation body (a bulk's each). */
function testDataOf(b: Body | undefined): { iban: unknown; currencies: unknown[] } {
  const parts = Array.isArray(b?.payments) ? (b.payments as Body[]) : b ? [b] : [];
  return {
    iban: (b?.debtorAccount as Body | undefined)?.iban,
    currencies: parts.map((p) => (p?.instructedAmount as Body | undefined)?.currency),
  };
}

/**
 * An IBAN valid under ISO 13616 (registry country, its length, check digits by mod 97-10) whose
 * BBAN fails North Macedonia's national check, stable per account key.
 */
export function nationalCheckFailing(key: string): string {
  const digits = (n: number) =>
    String(createHash('sha256').update(`${key}|${n}`).digest().readUInt32BE(0))
      .padStart(10, '0')
      .slice(-10);
  for (let n = 0; ; n++) {
    const bban = `300${digits(n)}00`;
    const iban = `MK${String(98 - mod97(`MK00${bban}`)).padStart(2, '0')}${bban}`;
    if (ibanNote(iban)) return iban;
  }
}

/** The PSU's first account shows a North Macedonian IBAN that fails only its national check (the same on every read). */
function withNationalIban(bank: PsuBank): PsuBank {
  const [first, ...rest] = bank.accounts;
  if (!first) return bank;
  return { ...bank, accounts: [{ ...first, iban: nationalCheckFailing(first.key) }, ...rest] };
}

const variants: Variant[] = [
  {
    id: 'accounts.iban-national-check-fails',
    description:
      "a PSU's first account carries an IBAN that passes ISO 13616 (country, length, mod-97) but fails its country's national check (North Macedonia's), on every read and in consent access",
    allows:
      '| iban | `[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}`, with the ISO 13616 mod-97 check | (reference-facts > Value formats: a national check inside the BBAN is no part of ISO 13616)',
    concerns: [
      'accounts.account.iban-check',
      'accounts.list.shape',
      'accounts.detail.shape',
      'accounts.transactions.shape',
    ],
    warns: [],
    install: (app) => {
      const service = accountsOf(app);
      const original = service.bankOf.bind(service);
      service.bankOf = (consent) => withNationalIban(original(consent));
    },
  },
  {
    id: 'payments.own-test-accounts-eur',
    description:
      "the bank's sandbox holds EUR accounts only: a payment from any other debtor account, or instructed in another currency, is refused (400 FORMAT_ERROR); the profile declares its accounts (payments.accounts)",
    allows:
      'Two servers exist, a sandbox and a production server. (Common rules; which test accounts and currencies a sandbox holds is not shown: Resources > Account reference lists `iban`, `bban`, `pan`, `maskedPan`, `msisdn`, `clearingNumber`, `currency`)',
    concerns: ['payments.initiate.response', 'payments.read.fields', 'payments.initiate.account-reference-kinds'],
    warns: [],
    claims: { payments: { accounts: EUR_TEST_ACCOUNTS } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const { iban, currencies } = testDataOf(req.body as Body | undefined);
        // A body without a debtor or an amount is left to the request validation (its own refusal).
        if (typeof iban === 'string' && !(EUR_DEBTORS as readonly string[]).includes(iban))
          throw formatError(`debtorAccount ${iban} is no test account of this sandbox`, 'debtorAccount');
        const other = currencies.find((c) => typeof c === 'string' && c !== 'EUR');
        if (other)
          throw formatError(`this sandbox pays in EUR only, not ${String(other)}`, 'instructedAmount.currency');
      }),
  },
  {
    id: 'authorisations.finalised-at-once',
    description:
      'a started decoupled SCA (mbid, mbid_same_device) ends at once, before the client first polls: the start answers started and every status read after it is final (the animated QR methods keep their pace, so their token is still seen to change)',
    allows:
      'In the sandbox the status changes on its own within a few seconds with no PSU action. (States > Authorisation: zero seconds is within a few)',
    concerns: [
      'authorisations.start.any-method',
      'authorisations.sandbox.finalises-within',
      'authorisations.status.ends',
      'payments.sca.accepted',
      'payments.authorisations.start',
      'payments.cancel.states.walk',
      'signing-baskets.sca.moves-payments',
    ],
    warns: [],
    install: (app) => {
      const engine = app.sandbox.sca;
      const paced = engine.delayFor.bind(engine);
      engine.delayFor = (methodId) => (methodId.startsWith('mbid_animated_qr') ? paced(methodId) : 0);
    },
  },
];

export default variants;
