import { gzipSync } from 'node:zlib';
import { rewriteJson } from '../hooks.js';
import type { Variant } from './variant.js';

/*
 * Freedoms of the wire a bank (or the gateway before it) uses that the reference sandbox does not
 * show: a transaction list given in pages, an answer compressed although the client asked for no
 * coding. The suite must read through them and stay conformant.
 */

type Entry = Record<string, unknown>;
type List = { transactions?: { booked?: Entry[]; pending?: Entry[]; _links?: Record<string, unknown> } };

const TRANSACTIONS = /\/accounts\/:accountId\/transactions$/;
/** Entries per page: small, so that every list of the seed takes several pages. */
export const PAGE_SIZE = 2;

/** One page of a whole list: its entries from `page` (1-based), booked ones first, with first, previous and next links. */
function pageOf(body: List, url: URL, page: number): List {
  const t = body.transactions;
  if (!t) return body;
  const entries = [
    ...(t.booked ?? []).map((e) => ['booked', e] as const),
    ...(t.pending ?? []).map((e) => ['pending', e] as const),
  ];
  const slice = entries.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const hrefOf = (n: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(n));
    return { href: `${u.pathname}${u.search}` };
  };
  const last = Math.max(1, Math.ceil(entries.length / PAGE_SIZE));
  const pick = (kind: 'booked' | 'pending') =>
    t[kind] ? { [kind]: slice.filter(([k]) => k === kind).map(([, e]) => e) } : {};
  return {
    ...body,
    transactions: {
      ...t,
      ...pick('booked'),
      ...pick('pending'),
      _links: {
        ...t._links,
        first: hrefOf(1),
        ...(page > 1 ? { previous: hrefOf(page - 1) } : {}),
        ...(page < last ? { next: hrefOf(page + 1) } : {}),
        last: hrefOf(last),
      },
    },
  };
}

const variants: Variant[] = [
  {
    id: 'behaviours.transactions-paged',
    description: `every transaction list is given in pages of ${PAGE_SIZE} entries (booked first, then pending), each page linking the next with transactions._links.next (and first, previous, last); the page is a query parameter of the link`,
    allows:
      'Link names seen: ... first, next, previous, last, download ... (Resources > Message and links: a list may be given in pages, each naming the next)',
    concerns: [
      'accounts.transactions.shape',
      'accounts.transactions.complete',
      'accounts.transactions.date-range',
      'accounts.transactions.date-to-default',
      'accounts.transactions.booking-status-filter',
      'accounts.transactions.pending-no-booking-date',
      'accounts.transactions.account-link',
      'accounts.transactions.entry-reference-from',
      'accounts.transactions.delta-list',
      'accounts.transactions.pending-entry-date',
      'accounts.transaction.details',
      'accounts.amounts.pattern',
    ],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS, status: 200 }, (b: List, req) => {
        const url = new URL(req.url, 'http://sandbox.invalid');
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
        return pageOf(b, url, page);
      }),
  },
  {
    id: 'behaviours.compressed-unasked',
    description:
      'every answer with a body (JSON, the SCA pages) is sent gzip-compressed with Content-Encoding gzip, though the client sent no Accept-Encoding: a gateway that always compresses',
    allows:
      'RFC 9110 12.5.3: "A request without any Accept-Encoding header field implies that the user agent has no preferences regarding content-codings"; the specification names no coding rule',
    concerns: [
      'directory.aspsps.list-shape',
      'consents.create.response',
      'consents.read.fields',
      'accounts.list.shape',
      'accounts.transactions.shape',
      'payments.initiate.response',
      'payments.status.response',
      'authorisations.create.response',
      'oauth.token.exchange',
      'headers.errors.tpp-messages',
    ],
    warns: [],
    install: (app) =>
      // Registered after every route and fault hook: the body is compressed as it leaves.
      app.addHook('onSend', async (_req, reply, payload) => {
        if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
        if (!payload.length || reply.getHeader('content-encoding')) return payload;
        reply.header('Content-Encoding', 'gzip');
        reply.removeHeader('content-length');
        return gzipSync(typeof payload === 'string' ? Buffer.from(payload) : payload);
      }),
  },
];

export default variants;
