import { isIpv4 } from '../../spec/header-forms.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountsOf } from '../accounts/service.js';
import { issueToken } from '../auth/tokens.js';
import type { Consent } from '../consents/store.js';
import { BgError, formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import {
  ANY,
  BALANCES,
  BY_ID,
  CONSENT,
  DETAIL,
  LIST,
  TRANSACTIONS,
  wrap,
  type Query,
  type TxList,
} from './accounts-shared.js';
import { type Fault } from './fault.js';
import { beforeGuard, beforeHandler, rewriteJson } from '../hooks.js';
import { asOwner, refuseAsFormatError } from './shapes.js';

/** The consent's state as if a consent of `status` were valid. */
const serveStatus = (app: FastifyInstance, status: Consent['status']) =>
  wrap(app, 'state', (original) => (consent: Consent) => (consent.status === status ? 'ok' : original(consent)));

const faults: Fault[] = [
  {
    id: 'accounts.consent-id-not-required',
    description: "a read without Consent-ID is served under the TPP's latest valid consent",
    breaks: ['headers.consent-id.account-reads', 'accounts.consent.missing-code'],
    install: (app) =>
      beforeHandler(app, { route: ANY }, (req) => {
        if (requestHeader(req, 'Consent-ID')) return;
        const latest = [...app.sandbox.consents.values()]
          .filter((c) => c.clientId === req.token?.clientId && c.type === 'ais' && c.status === 'valid')
          .pop();
        if (latest) req.headers['consent-id'] = latest.consentId;
      }),
  },
  {
    id: 'accounts.unknown-consent-empty-list',
    description: 'an unknown Consent-ID is answered 200 with an empty account list',
    breaks: ['accounts.consent.unknown', 'accounts.consent.unknown-code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (!LIST.test(req.routeOptions.url ?? '')) return;
        const id = requestHeader(req, 'Consent-ID');
        if (id && !app.sandbox.consents.has(id)) await reply.send({ accounts: [] });
      }),
  },
  {
    id: 'accounts.received-consent-served',
    description: 'a consent not yet authorised (received) is read under as if valid',
    breaks: ['accounts.consent.received', 'accounts.consent.invalid-code'],
    install: (app) => serveStatus(app, 'received'),
  },
  {
    id: 'accounts.rejected-consent-served',
    description: 'a consent whose SCA failed (rejected) is read under as if valid',
    breaks: ['accounts.consent.rejected', 'accounts.consent.invalid-code'],
    install: (app) => serveStatus(app, 'rejected'),
  },
  {
    id: 'accounts.terminated-consent-served',
    description: 'a deleted consent (terminatedByTpp) is still read under',
    breaks: ['accounts.consent.terminated', 'accounts.consent.invalid-code'],
    install: (app) => serveStatus(app, 'terminatedByTpp'),
  },
  {
    id: 'accounts.expired-consent-served',
    description: 'a recurring consent expired by a newer one is still read under',
    breaks: ['accounts.consent.expired', 'accounts.consent.expired-code'],
    install: (app) => serveStatus(app, 'expired'),
  },
  {
    id: 'accounts.consent-accounts-ignored',
    description:
      'every account of the PSU is listed and readable under any consent, whatever accounts its access names',
    breaks: ['accounts.access.account-outside'],
    install: (app) =>
      wrap(
        app,
        'allows',
        (original) => (consent, account, service) =>
          service === 'accounts' ? true : original(consent, account, service),
      ),
  },
  {
    id: 'accounts.consent-services-ignored',
    description: 'a listed account serves balances and transactions whatever services the consent names on it',
    breaks: ['accounts.access.service-outside', 'accounts.access.with-balance-outside'],
    install: (app) => wrap(app, 'allows', (original) => (consent, account) => original(consent, account, 'accounts')),
  },
  {
    id: 'accounts.product-as-number',
    description: 'Account.product comes as a number in List accounts and account detail',
    breaks: ['accounts.list.shape', 'accounts.detail.shape'],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts: { product?: unknown }[] }) =>
        b.accounts.forEach((a) => (a.product = 4711)),
      );
      rewriteJson(
        app,
        { method: 'GET', route: DETAIL },
        (b: { account: { product?: unknown } }) => void (b.account.product = 4711),
      );
    },
  },
  {
    id: 'accounts.detail-name-differs',
    description: 'account detail gives another name than the list entry',
    breaks: ['accounts.detail.shape'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'GET', route: DETAIL },
        (b: { account: { name?: string } }) => void (b.account.name = `${b.account.name ?? ''} (detail)`),
      ),
  },
  {
    id: 'accounts.transactions-link-dropped',
    description: 'accounts carry _links.balances but no _links.transactions',
    // Listed, not required: its presence is the completeness SHOULD's.
    breaks: ['accounts.list.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts: { _links?: Record<string, unknown> }[] }) =>
        b.accounts.forEach((a) => delete a._links?.transactions),
      ),
  },
  {
    id: 'accounts.id-rotates-per-list',
    description: 'every List accounts gives the accounts new ids (the old ones still work)',
    breaks: ['accounts.account.id-stable'],
    install: (app) => {
      const reads = new Map<string, number>();
      const asked = new WeakMap<FastifyRequest, { stripped: string; asked: string }>();
      beforeHandler(app, { route: BY_ID }, (req) => {
        const p = req.params as { accountId: string };
        const stripped = p.accountId.replace(/~\d+$/, '');
        if (stripped !== p.accountId) asked.set(req, { stripped, asked: p.accountId });
        p.accountId = stripped;
      });
      app.addHook('onSend', async (req, reply, payload) => {
        if (typeof payload !== 'string' || reply.statusCode !== 200 || !ANY.test(req.routeOptions.url ?? ''))
          return payload;
        if (LIST.test(req.routeOptions.url ?? '')) {
          const consentId = requestHeader(req, 'Consent-ID') ?? '';
          const n = (reads.get(consentId) ?? 0) + 1;
          reads.set(consentId, n);
          const body = JSON.parse(payload) as { accounts: { resourceId: string }[] };
          let out = payload;
          for (const a of body.accounts) out = out.split(a.resourceId).join(`${a.resourceId}~${n}`);
          return out;
        }
        const seen = asked.get(req);
        return seen ? payload.split(seen.stripped).join(seen.asked) : payload;
      });
    },
  },
  {
    id: 'accounts.with-balance-rejected',
    description: 'withBalance is refused with 400 instead of being honoured or ignored',
    breaks: ['accounts.list.with-balance-accepted', 'accounts.list.with-balance'],
    install: (app) =>
      beforeHandler(app, { route: /\/accounts(\/:accountId)?$/ }, (req) => {
        if ((req.query as Query).withBalance !== undefined)
          throw formatError('query withBalance is not supported', 'withBalance');
      }),
  },
  {
    id: 'accounts.with-balance-ignored',
    description: 'withBalance=true gives accounts without balances',
    breaks: ['accounts.list.with-balance'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts: { balances?: unknown }[] }) =>
        b.accounts.forEach((a) => delete a.balances),
      ),
  },
  {
    id: 'accounts.balance-amount-number',
    description: 'balanceAmount.amount comes as a JSON number',
    breaks: ['accounts.balances.shape', 'accounts.amounts.pattern'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'GET', route: BALANCES },
        (b: { balances: { balanceAmount: { amount: unknown } }[] }) =>
          b.balances.forEach((x) => (x.balanceAmount.amount = Number(x.balanceAmount.amount))),
      ),
  },
  {
    id: 'accounts.balance-type-capitalised',
    description: 'balanceType values are capitalised (ClosingBooked)',
    breaks: ['accounts.balances.type-enum'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BALANCES }, (b: { balances: { balanceType: string }[] }) =>
        b.balances.forEach((x) => (x.balanceType = x.balanceType[0].toUpperCase() + x.balanceType.slice(1))),
      ),
  },
  {
    id: 'accounts.transactions-iban-dropped',
    description: 'the transaction list names no account iban (listed, not required: a completeness warning)',
    breaks: ['accounts.transactions.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList) => void delete b.account?.iban),
  },
  {
    id: 'accounts.account-product-dropped',
    description:
      'List accounts leaves out product on every Account (listed, not required: a completeness warning the currency-only check did not give)',
    breaks: ['accounts.list.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts?: Record<string, unknown>[] }) =>
        b.accounts?.forEach((a) => delete a.product),
      ),
  },
  {
    id: 'accounts.balance-reference-date-dropped',
    description:
      'every balance leaves out its referenceDate (listed, not required: a completeness warning the balanceType/balanceAmount check did not give)',
    breaks: ['accounts.balances.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BALANCES }, (b: { balances?: Record<string, unknown>[] }) =>
        b.balances?.forEach((x) => delete x.referenceDate),
      ),
  },
  {
    id: 'accounts.transaction-value-date-dropped',
    description:
      'every entry of the transaction list leaves out its valueDate (listed, not required: a completeness warning the transactionAmount check did not give)',
    breaks: ['accounts.transactions.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList) => {
        for (const t of [...(b.transactions?.booked ?? []), ...(b.transactions?.pending ?? [])]) delete t.valueDate;
      }),
  },
  {
    id: 'accounts.with-balance-outside-access',
    description:
      'withBalance=true brings balances on every account of List accounts, account detail and the transaction list, also where the consent gives transaction access only',
    breaks: ['accounts.access.with-balance-outside'],
    install: (app) => {
      const ais = accountsOf(app);
      const consentOf = (req: FastifyRequest) => app.sandbox.consents.get(requestHeader(req, 'Consent-ID') ?? '');
      const asked = (req: FastifyRequest) => String((req.query as Query).withBalance) === 'true';
      const balancesOf = (consent: Consent, key: string) =>
        ais
          .bankOf(consent)
          .balances(key)
          .map((x) => ({
            balanceType: x.balanceType,
            balanceAmount: { currency: x.currency, amount: x.amount },
            referenceDate: x.referenceDate,
          }));
      const idOf = (req: FastifyRequest) => (req.params as { accountId: string }).accountId;
      rewriteJson(
        app,
        { method: 'GET', route: LIST, status: 200 },
        (b: { accounts?: Record<string, unknown>[] }, req) => {
          const consent = consentOf(req);
          if (!consent || !asked(req)) return;
          for (const a of b.accounts ?? []) {
            const account = ais.resolve(consent, String(a.resourceId));
            if (account && !a.balances) a.balances = balancesOf(consent, account.key);
          }
        },
      );
      rewriteJson(
        app,
        { method: 'GET', route: DETAIL, status: 200 },
        (b: { account?: Record<string, unknown> }, req) => {
          const consent = consentOf(req);
          const account = consent && ais.resolve(consent, idOf(req));
          if (consent && account && asked(req) && b.account && !b.account.balances)
            b.account.balances = balancesOf(consent, account.key);
        },
      );
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS, status: 200 }, (b: Record<string, unknown>, req) => {
        const consent = consentOf(req);
        const account = consent && ais.resolve(consent, idOf(req));
        if (consent && account && asked(req) && !b.balances) b.balances = balancesOf(consent, account.key);
      });
    },
  },
  {
    id: 'accounts.consent-read-lists-other-accounts',
    description:
      "the read consent of an authorised consent asked with empty arrays lists the PSU's first account alone, while List accounts shows every account",
    breaks: ['accounts.access.granted-accounts'],
    install: (app) => {
      const ais = accountsOf(app);
      rewriteJson(app, { method: 'GET', route: CONSENT }, (b: { access?: Record<string, unknown> }, req) => {
        const c = app.sandbox.consents.get((req.params as { consentId: string }).consentId);
        const { balances, transactions } = c?.access ?? {};
        if (!c || c.status !== 'valid' || !Array.isArray(balances) || balances.length || !Array.isArray(transactions))
          return;
        if (transactions.length) return;
        const refs = [{ iban: ais.bankOf(c).accounts[0].iban }];
        b.access = { ...b.access, balances: refs, transactions: refs };
      });
    },
  },
  {
    id: 'accounts.transactions-iban-of-another-account',
    description: "the transaction list names an iban that is not the account's",
    breaks: ['accounts.transactions.shape'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList) => {
        if (b.account) b.account.iban = 'DE89370400440532013000';
      }),
  },
  {
    id: 'accounts.frequency-not-enforced',
    description: 'reads without the PSU present are never counted against frequencyPerDay',
    breaks: ['accounts.frequency.access-exceeded'],
    install: (app) => wrap(app, 'admit', () => () => true),
  },
  {
    id: 'accounts.one-off-unlimited',
    description: 'a one-off consent (recurringIndicator false) serves every read, as often as it is read',
    breaks: ['accounts.one-off.second-read', 'accounts.one-off.second-read-code'],
    install: (app) => {
      wrap(app, 'oneOffAllows', () => () => true);
      wrap(app, 'spendOneOff', () => () => undefined);
    },
  },
  {
    id: 'accounts.one-off-repeat-forbidden',
    description:
      'a second read under a one-off consent is refused with 403 SERVICE_BLOCKED instead of 429 ACCESS_EXCEEDED or 401 CONSENT_EXPIRED',
    breaks: ['accounts.one-off.second-read-code'],
    install: (app) => {
      const ais = accountsOf(app);
      ais.oneOff = 'per-resource';
      wrap(app, 'oneOffAllows', (original) => (consent, accountKey, endpoint) => {
        if (original(consent, accountKey, endpoint)) return true;
        throw new BgError(403, 'SERVICE_BLOCKED', 'this one-off consent has been read');
      });
    },
  },
  {
    id: 'accounts.psu-token-not-required',
    description:
      "under a profile claiming tokens.accountReads psu, account reads accept the application token as well as the PSU's",
    breaks: ['accounts.token.psu-required'],
    claims: { tokens: { accountReads: 'psu' } },
    // The reference sandbox accepts any token of the client with scope accountinformation: it is the fault.
    install: () => undefined,
  },
  {
    id: 'accounts.scope-ignored',
    description: 'account reads accept a token of any API scope',
    breaks: ['accounts.scope.payment-token'],
    install: (app) =>
      beforeGuard(app, { route: ANY }, (req) => {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        const info = m ? app.sandbox.tokens.get(m[1]) : undefined;
        if (info && !info.scopes.has('accountinformation')) {
          req.headers.authorization = `Bearer ${issueToken(app, info.clientId, ['accountinformation', ...info.scopes]).token}`;
        }
      }),
  },
  {
    id: 'accounts.account-other-tpp',
    description: "account reads accept the Consent-ID of another TPP's consent",
    breaks: ['accounts.ownership.other-tpp', 'accounts.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: ANY }, (req) => {
        const id = req.headers['consent-id'];
        asOwner(req, typeof id === 'string' ? app.sandbox.consents.get(id)?.clientId : undefined);
      }),
  },
  {
    id: 'accounts.account-other-tpp-400',
    description: "account reads with another TPP's Consent-ID are refused with 400 FORMAT_ERROR, not CONSENT_UNKNOWN",
    breaks: ['accounts.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: ANY }, (req) => {
        const id = req.headers['consent-id'];
        refuseAsFormatError(req, typeof id === 'string' ? app.sandbox.consents.get(id)?.clientId : undefined);
      }),
  },
  {
    id: 'accounts.account-reads-any-psu-ip',
    description: 'account reads take a PSU-IP-Address that is not IPv4',
    breaks: ['accounts.read.psu-ip-address-format'],
    install: (app) =>
      beforeHandler(app, { route: ANY }, (req) => {
        const ip = req.headers['psu-ip-address'];
        if (typeof ip === 'string' && !isIpv4(ip)) req.headers['psu-ip-address'] = '192.0.2.10';
      }),
  },
];

export default faults;
