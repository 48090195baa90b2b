import type { FastifyReply } from 'fastify';
import { accountsOf, type AisService } from '../accounts/service.js';
import type { Consent } from '../consents/store.js';
import { readUuidsLeniently, rewriteJson } from '../hooks.js';
import type { SeedAccount } from '../seed/accounts.js';
import behaviourVariants from './behaviours.js';
import type { Variant } from './variant.js';

/*
 * Freedoms real implementations use (reference facts, "Freedoms real implementations use") that
 * the reference sandbox does not show: fields of the bank's own, listed fields left out, a
 * transaction list given as a download link, the other reading of a deleted consent, names that do
 * not link the directory's lists. The suite must stay conformant under each.
 */

type Body = Record<string, unknown>;

const BALANCES = /\/accounts\/:accountId\/balances$/;
const TRANSACTIONS = /\/accounts\/:accountId\/transactions$/;
const CONSENT = /^\/psd2\/consent\/v1\/consents\/:consentId$/;
const BANK = /\/aspsps\/:bicFi$/;
const ACCOUNT_LIST = /\/accountinformation\/v1\/accounts$/;

const sendJson = (reply: FastifyReply, status: number, body: unknown) =>
  reply.status(status).header('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body));

/** The field every JSON object answer and every object entry of a list carries under fields.proprietary. */
export const PROPRIETARY_FIELD = 'proprietaryBankData';

/** Adds the proprietary field to `body` (an object answer) and to every object that is an entry of a list in it. */
function addProprietary(value: unknown, top: boolean): void {
  if (Array.isArray(value)) {
    for (const entry of value) {
      if (entry && typeof entry === 'object' && !Array.isArray(entry))
        (entry as Body)[PROPRIETARY_FIELD] = { note: 'a field of the bank' };
      addProprietary(entry, false);
    }
    return;
  }
  if (!value || typeof value !== 'object') return;
  if (top) (value as Body)[PROPRIETARY_FIELD] = { note: 'a field of the bank' };
  for (const [k, v] of Object.entries(value as Body)) if (k !== '_links') addProprietary(v, false);
}

const deleteNoContent = behaviourVariants.find((v) => v.id === 'consents.delete-no-content')!;

const variants: Variant[] = [
  {
    id: 'fields.proprietary',
    description:
      "every JSON object answer, and every object entry of a list in an answer (accounts, balances, transactions, banks, cities, countries, account references, ...), carries a field of the bank's own",
    allows:
      '| ASPSP list entry | other fields | | not shown | (Resources > ASPSP, city, country); reference facts: "Berlin Group responses carry fields beyond those a specification lists (proprietary or later Berlin Group fields); a client ignores what it does not know."',
    concerns: [
      'directory.aspsps.list-shape',
      'directory.city.detail',
      'directory.country.detail',
      'accounts.list.shape',
      'accounts.detail.shape',
      'accounts.balances.shape',
      'accounts.transactions.shape',
      'accounts.transaction.details',
      'accounts.transactions.with-balance-balances',
      'consents.read.fields',
      'consents.status.response',
      'consents.create.response',
      'payments.initiate.response',
      'payments.read.fields',
      'payments.status.response',
      'payments.cancel.response',
      'signing-baskets.create.response',
      'signing-baskets.read.response',
      'signing-baskets.status.response',
      'direct-debit.get.fields',
      'direct-debit.confirm.file-uploaded',
      'authorisations.create.response',
      'authorisations.list.contains',
      'oauth.token.exchange',
    ],
    warns: [],
    install: (app) =>
      app.addHook('onSend', async (_req, reply, payload) => {
        if (typeof payload !== 'string' || !/json/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
        if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
        let body: unknown;
        try {
          body = JSON.parse(payload);
        } catch {
          return payload;
        }
        if (!body || typeof body !== 'object' || Array.isArray(body)) return payload;
        addProprietary(body, true);
        return JSON.stringify(body);
      }),
  },
  {
    id: 'fields.balances-without-account',
    description: "the balance response leaves out account (Berlin Group's multicurrency example does)",
    allows:
      '| Balance response | `account` (object with `iban`), `balances` (array) | (Resources: listed, no rule that account is present); reference facts: "Berlin Group\'s own example of a balance response (multicurrency account) has `balances` without `account`."',
    concerns: ['accounts.balances.shape', 'accounts.balances.complete'],
    warns: ['accounts.balances.complete'],
    install: (app) => rewriteJson(app, { method: 'GET', route: BALANCES }, (b: Body) => void delete b.account),
  },
  {
    id: 'fields.balances-empty',
    description:
      'the balance response of every account carries an empty balances array (an account with no balance to give)',
    allows:
      '| Balance response | `account` (object with `iban`), `balances` (array) | (Resources: an array, with no rule on how many entries)',
    concerns: ['accounts.balances.shape', 'accounts.balances.complete', 'accounts.balances.type-enum'],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BALANCES }, (b: Body) => {
        b.balances = [];
      }),
  },
  {
    id: 'fields.transactions-empty-lists-omitted',
    description: 'the transaction list leaves out its booked or pending array when it would be empty',
    allows:
      '| Transaction list response | `account` (object with `iban`), `transactions` (object with `booked` array, `pending` array, `_links.account`) | (Resources: listed, no rule that an empty array is given)',
    concerns: [
      'accounts.transactions.shape',
      'accounts.transactions.booking-status-filter',
      'accounts.transactions.date-range',
      'accounts.transactions.complete',
    ],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: Body) => {
        const t = b.transactions as Record<string, unknown> | undefined;
        for (const k of ['booked', 'pending'])
          if (t && Array.isArray(t[k]) && (t[k] as unknown[]).length === 0) delete t[k];
      }),
  },
  {
    id: 'directory.uuid-lookup-lenient',
    description:
      'City and the cityIds filter of List banks read a uuid as common uuid lookups do: without hyphens or in braces it finds the same city',
    allows:
      '| City | path `city-id` (uuid) | City | (the row types the value the TPP sends; no sentence says the bank refuses another form of it)',
    concerns: ['directory.city.id-format', 'directory.city.id-canonical', 'directory.aspsps.filter-city-format'],
    warns: ['directory.city.id-canonical'],
    install: readUuidsLeniently,
  },
  {
    id: 'fields.transactions-without-account',
    description: 'the transaction list leaves out account',
    allows:
      '| Transaction list response | `account` (object with `iban`), `transactions` (object with `booked` array, `pending` array, `_links.account`) | (Resources: listed, no rule that account is present)',
    concerns: ['accounts.transactions.shape', 'accounts.transactions.complete'],
    warns: ['accounts.transactions.complete'],
    install: (app) => rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: Body) => void delete b.account),
  },
  {
    id: 'behaviours.transactions-download',
    description:
      'every transaction list is answered with a download link (_links.download) instead of the booked and pending lists',
    allows:
      'Link names seen: ... download ... (Resources > Message and links); reference facts: "A transaction list too large to return may be answered with `_links.download` (a link to the whole report) instead of the `booked`/`pending` lists"',
    concerns: [
      'accounts.transactions.shape',
      'accounts.transactions.complete',
      'accounts.transactions.date-range',
      'accounts.transactions.booking-status-filter',
      'accounts.transactions.account-link',
      'accounts.transaction.details',
      'accounts.amounts.pattern',
    ],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS, status: 200 }, (b: Body, req) => ({
        account: b.account,
        _links: {
          download: { href: `/v1/accounts/${(req.params as { accountId: string }).accountId}/transactions/download` },
        },
      })),
  },
  {
    id: 'behaviours.consent-deleted-before-sca-rejected',
    description:
      'a consent deleted before its SCA reads rejected (not terminatedByTpp), and a second delete is refused',
    allows:
      'Further consent statuses and the move from received to valid: not shown. (States > Consent); reference facts: "A consent deleted before its SCA may read `rejected` (adorsys xs2a) or `terminatedByTpp`."',
    concerns: ['consents.delete.terminated', 'consents.delete.twice', 'consents.status.values'],
    warns: [],
    // Its first delete answers Berlin Group's 204: a reading allowed under either.
    claims: { consents: { deleteAnswer: 'either' } },
    install: (app) => {
      const deleted = new Set<string>();
      app.addHook('preHandler', async (req, reply) => {
        if (req.method !== 'DELETE' || !CONSENT.test(req.routeOptions.url ?? '')) return;
        const id = (req.params as { consentId: string }).consentId;
        const c = app.sandbox.consents.get(id);
        if (!c || c.clientId !== req.token?.clientId) return;
        if (deleted.has(id))
          return sendJson(reply, 401, {
            tppMessages: [
              { category: 'ERROR', code: 'CONSENT_INVALID', path: 'consentId', text: 'the consent has been deleted' },
            ],
          });
        if (c.status !== 'received') return;
        c.status = 'rejected';
        deleted.add(id);
        return reply.status(204).send();
      });
    },
  },
  {
    ...deleteNoContent,
    id: 'behaviours.consent-delete-no-content-default',
    description:
      "delete consent answers Berlin Group's 204 with no body under the default consents.deleteAnswer ('either')",
    claims: { consents: { deleteAnswer: 'either' } },
  },
  {
    id: 'behaviours.account-list-order-varies',
    description: 'List accounts gives the accounts in reverse order on every second read',
    allows: '| Account list response | `accounts` (array of Account) | (Resources: no order of the list is stated)',
    concerns: ['accounts.account.id-stable', 'accounts.list.shape'],
    warns: [],
    install: (app) => {
      let reads = 0;
      rewriteJson(app, { method: 'GET', route: ACCOUNT_LIST }, (b: { accounts?: unknown[] }) => {
        if (reads++ % 2 === 1 && Array.isArray(b.accounts)) b.accounts.reverse();
      });
    },
  },
  {
    id: 'behaviours.directory-names-unlinked',
    description:
      "bank details name their city and country in words the city and country lists do not use (the city's name with its district, the country's name in its own language)",
    allows:
      '| ASPSP detail | city, country, postalCode, streetAddress, companyNumber, phone | string | | (Resources: city and country are strings; no rule links them to the City and Country lists)',
    concerns: [
      'directory.aspsps.filter-country',
      'directory.aspsps.filter-country-array',
      'directory.aspsps.filter-city',
      'directory.aspsps.countries-consistent',
    ],
    warns: ['directory.aspsps.countries-consistent'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BANK }, (b: Body) => {
        if (typeof b.city === 'string') b.city = `${b.city} centrum`;
        if (typeof b.country === 'string') b.country = `Konungariket ${b.country}`;
      }),
  },
  {
    id: 'behaviours.consent-bank-offered',
    description:
      "a consent with empty balances and transactions arrays is a bank-offered consent: the PSU picks the accounts at the SCA (here every account but the PSU's last, when the PSU holds more than two); after the SCA the read consent lists them, and only they are served",
    allows:
      '| access | object (accountAccess) | yes | requested access services. It contains `balances` and `transactions`, each an array of account references. A reference has `iban`, `maskedPan` or `pan`, and an optional `currency`. Other accountAccess fields: not shown | (what empty arrays ask for is not stated); reference facts: "A consent whose `balances` and `transactions` arrays are empty is, in Berlin Group, a "bank-offered consent": the PSU chooses the accounts during the SCA, and the read consent then lists them."',
    concerns: [
      'accounts.list.shape',
      'accounts.list.complete',
      'accounts.detail.shape',
      'accounts.account.links',
      'accounts.account.id-stable',
      'accounts.list.with-balance',
      'accounts.access.account-outside',
      'accounts.access.service-outside',
      'accounts.access.with-balance-outside',
      'accounts.access.granted-accounts',
      'accounts.balances.shape',
      'accounts.transactions.shape',
      'consents.read.fields',
      'consents.read.complete',
      'consents.state.valid-after-sca',
    ],
    warns: [],
    install: (app) => {
      const ais = accountsOf(app);
      const bankOffered = (c: Consent) =>
        Array.isArray(c.access.balances) &&
        c.access.balances.length === 0 &&
        Array.isArray(c.access.transactions) &&
        c.access.transactions.length === 0 &&
        !c.access.accounts?.length &&
        c.access.allPsd2 === undefined &&
        c.access.availableAccounts === undefined;
      /** The accounts the PSU picked at the SCA. */
      const picked = (c: Consent): SeedAccount[] => {
        const all = ais.bankOf(c).accounts;
        return all.length > 2 ? all.slice(0, -1) : all;
      };
      const allows = ais.allows.bind(ais);
      ais.allows = (c: Consent, account: SeedAccount, service: AisService) =>
        bankOffered(c) ? picked(c).some((p) => p.key === account.key) : allows(c, account, service);
      // After the SCA (not before it, nor after a failed one) the read consent lists the picked accounts.
      rewriteJson(app, { method: 'GET', route: CONSENT }, (b: Body, req) => {
        const c = app.sandbox.consents.get((req.params as { consentId: string }).consentId);
        if (!c || !bankOffered(c) || c.status === 'received' || c.status === 'rejected') return;
        const refs = picked(c).map((a) => ({ iban: a.iban }));
        b.access = { ...(b.access as Body), balances: refs, transactions: refs };
      });
    },
  },
];

export default variants;
