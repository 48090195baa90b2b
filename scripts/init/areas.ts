// init, step 2 (probing): which areas answer, and under which path layout. Each area is asked a
// read (or a create with an empty body, which creates nothing) of a resource that does not exist,
// under the OpenAPI file's path, the specification's, and the common prefixes; a route that
// exists answers it with a refusal of its own (403 CONSENT_UNKNOWN, 400...), a missing one with a
// 404 or an HTML page. A refusal that a made-up path beside it gets alike (a gateway refusing
// everything) proves nothing.
import { randomUUID } from 'node:crypto';
import type { Answer, Bank } from './bank.js';
import type { OpenApiFindings, PathKey } from './openapi.js';

export type Area = 'directory' | 'consents' | 'accounts' | 'payments' | 'signingBaskets' | 'directDebit';
export const AREAS: Area[] = ['consents', 'accounts', 'payments', 'directory', 'signingBaskets', 'directDebit'];

/** A path layout: the paths of every area under one prefix. */
type Layout = Record<PathKey, string>;

/** The specification's resource base paths (sections B, D, E, H; the directory's are the reference sandbox's). */
const FLOW_GUIDE: Layout = {
  aspsps: 'psd2/aspspinformation/v1/aspsps',
  cities: 'psd2/aspspinformation/v1/cities',
  countries: 'psd2/aspspinformation/v1/countries',
  consents: 'psd2/consent/v1/consents',
  accounts: 'psd2/accountinformation/v1/accounts',
  payments: 'psd2/paymentinitiation/v1',
  signingBaskets: 'psd2/paymentinitiation/v1/signing-baskets',
  directDebitCreate: 'iso/beta/payments/sepa-direct-debit',
  directDebitPayments: 'iso/payments',
};
/** The prefixes tried before the specification's link form (/v1/consents, /v1/accounts...). */
export const PREFIXES = ['v1', 'psd2/v1', 'berlingroup/v1', 'bg/v1', 'api/v1', 'openbanking/v1', 'api/psd2/v1'];

const under = (prefix: string): Layout => {
  const root = prefix.replace(/\/?v1$/, '');
  const iso = (p: string) => (root ? `${root}/${p}` : p);
  return {
    aspsps: `${prefix}/aspsps`,
    cities: `${prefix}/cities`,
    countries: `${prefix}/countries`,
    consents: `${prefix}/consents`,
    accounts: `${prefix}/accounts`,
    payments: prefix,
    signingBaskets: `${prefix}/signing-baskets`,
    directDebitCreate: iso('iso/beta/payments/sepa-direct-debit'),
    directDebitPayments: iso('iso/payments'),
  };
};
const LAYOUTS: [string, Layout][] = [
  ["the specification's resource base paths", FLOW_GUIDE],
  ...PREFIXES.map((p): [string, Layout] => [`/${p}`, under(p)]),
];

/** The keys each area's paths set. */
export const AREA_KEYS: Record<Area, PathKey[]> = {
  directory: ['aspsps', 'cities', 'countries'],
  consents: ['consents'],
  accounts: ['accounts'],
  payments: ['payments'],
  signingBaskets: ['signingBaskets'],
  directDebit: ['directDebitCreate', 'directDebitPayments'],
};

/** What the probe found of an area. */
export interface AreaFinding {
  /** The paths that answered (the area's keys), when it answered. */
  paths?: Partial<Record<PathKey, string>>;
  /** The layout it answered under. */
  layout?: string;
  /** Each call tried: "GET /path → 404". */
  tried: string[];
}

export interface AreasFound {
  areas: Record<Area, AreaFinding>;
  /** The payment products and services that answered (a payment that does not exist, not PRODUCT_UNKNOWN). */
  products: string[];
  services: string[];
}

const PRODUCTS = ['sepa-credit-transfers', 'domestic', 'international', 'international-tp', 'swedish-giro'];
const SERVICES = ['payments', 'bulk-payments', 'periodic-payments'];
/** Codes a missing product or service route gives: under another area's path they prove nothing. */
const FOREIGN = new Set(['PRODUCT_UNKNOWN', 'PRODUCT_INVALID', 'SERVICE_INVALID', 'SERVICE_BLOCKED']);

/** One area's probe: a call on a resource that does not exist under `path`. */
interface Probe {
  method: 'GET' | 'POST';
  /** The call's path under the area's path. */
  suffix: (id: string) => string;
  scope: string;
  headers?: (id: string) => Record<string, string>;
  json?: unknown;
  /** Codes of a 404 that still prove the route (the resource is unknown, the route is not). */
  own?: readonly string[];
}

/**
 * The codes of a 404 to an unknown id that the suite's own checks accept (consents.unknown.code,
 * payments.read.unknown, the baskets' unknown reads): a bank that answers them is a conforming
 * route, not a missing one (a made-up path beside it must answer otherwise: `answers`).
 */
const UNKNOWN_ID = ['RESOURCE_UNKNOWN'];

const PROBES: Record<Exclude<Area, 'directory'>, Probe> = {
  consents: {
    method: 'GET',
    suffix: (id) => `/${id}/status`,
    scope: 'accountinformation',
    own: ['CONSENT_UNKNOWN', ...UNKNOWN_ID],
  },
  accounts: {
    method: 'GET',
    suffix: () => '',
    scope: 'accountinformation',
    headers: (id) => ({ 'Consent-ID': id }),
    own: ['CONSENT_UNKNOWN'],
  },
  payments: {
    method: 'GET',
    suffix: (id) => `/payments/sepa-credit-transfers/${id}/status`,
    scope: 'paymentinitiation',
    own: UNKNOWN_ID,
  },
  signingBaskets: { method: 'GET', suffix: (id) => `/${id}/status`, scope: 'paymentinitiation', own: UNKNOWN_ID },
  directDebit: { method: 'POST', suffix: () => '', scope: 'paymentinitiation', json: {} },
};

/** The codes of a 404 that still prove an area's route (the resource unknown, the route there). */
export const ownCodesOf = (area: Exclude<Area, 'directory'>): readonly string[] => PROBES[area].own ?? [];

/** A route's own answer: not a 404 (unless its code names the unknown resource), no HTML page, no 5xx, not another route's code. */
export function routeAnswers(a: Answer, own: readonly string[] = []): boolean {
  if (!a.status || a.status >= 500 || a.html || a.status === 405 || a.status === 501) return false;
  if (a.status === 404) return !!a.code && own.includes(a.code);
  return !a.code || !FOREIGN.has(a.code);
}

const signature = (a: Answer) => `${a.status} ${a.code ?? ''}`;

/** Does the route at `path` answer the area's probe (and a made-up path beside it not alike)? */
async function answers(bank: Bank, path: string, probe: Probe, tried: string[]): Promise<boolean> {
  const id = randomUUID();
  const call = (p: string) =>
    bank.call(probe.method, `${p}${probe.suffix(id)}`, {
      scope: probe.scope,
      headers: { ...(bank.answers.psuId ? { 'PSU-ID': bank.answers.psuId } : {}), ...probe.headers?.(id) },
      ...(probe.json !== undefined ? { json: probe.json } : {}),
    });
  const res = await call(path);
  tried.push(
    `${probe.method} /${path}${probe.suffix('{id}')} → ${res.error ?? `${res.status}${res.code ? ` ${res.code}` : ''}`}`,
  );
  if (!routeAnswers(res, probe.own)) return false;
  const beside = `${path
    .split('/')
    .slice(0, -1)
    .concat(`obg-conformance-init-${id.slice(0, 8)}`)
    .join('/')}`;
  const control = await call(beside);
  return !routeAnswers(control, probe.own) || signature(control) !== signature(res);
}

/** The directory answers its list reads: 2xx JSON with the list. */
async function directoryAnswers(bank: Bank, layout: Layout, tried: string[]) {
  const found: Partial<Record<PathKey, string>> = {};
  for (const key of ['aspsps', 'countries', 'cities'] as const) {
    const res = await bank.call('GET', layout[key], { scope: 'aspspinformation' });
    tried.push(`GET /${layout[key]} → ${res.error ?? res.status}`);
    const list = (res.json as Record<string, unknown> | undefined)?.[key];
    if (res.status >= 200 && res.status < 300 && Array.isArray(list)) found[key] = layout[key];
    else if (key === 'aspsps') return undefined;
  }
  return found;
}

/** The layouts to try for an area: the OpenAPI file's path, then the layout that answered for another area, then the rest. */
function candidates(openapi: OpenApiFindings | undefined, preferred: string | undefined): [string, Layout][] {
  const ordered = [...LAYOUTS].sort(([a], [b]) => Number(b === preferred) - Number(a === preferred));
  if (!openapi || !Object.keys(openapi.paths).length) return ordered;
  return [['the OpenAPI file', { ...FLOW_GUIDE, ...openapi.paths }], ...ordered];
}

/** One area: the first layout under which it answers. */
async function probeArea(bank: Bank, area: Area, list: [string, Layout][]): Promise<AreaFinding> {
  const tried: string[] = [];
  const seen = new Set<string>();
  for (const [name, layout] of list) {
    const first = layout[AREA_KEYS[area][0]];
    if (seen.has(first)) continue;
    seen.add(first);
    if (area === 'directory') {
      const paths = await directoryAnswers(bank, layout, tried);
      if (paths) return { paths, layout: name, tried };
      continue;
    }
    if (await answers(bank, first, PROBES[area], tried)) {
      const paths = Object.fromEntries(AREA_KEYS[area].map((k) => [k, layout[k]]));
      return { paths, layout: name, tried };
    }
  }
  return { tried };
}

/** The services and products a payments path answers for (a payment that does not exist under each). */
async function paymentOffer(bank: Bank, payments: string) {
  const offered = async (service: string, product: string) => {
    const res = await bank.call('GET', `${payments}/${service}/${product}/${randomUUID()}/status`, {
      scope: 'paymentinitiation',
      headers: bank.answers.psuId ? { 'PSU-ID': bank.answers.psuId } : {},
    });
    return routeAnswers(res, UNKNOWN_ID) && !(res.code && /PRODUCT|SERVICE/.test(res.code));
  };
  const products: string[] = [];
  for (const product of PRODUCTS) if (await offered('payments', product)) products.push(product);
  const services: string[] = [];
  for (const service of SERVICES) if (await offered(service, products[0] ?? PRODUCTS[0])) services.push(service);
  return { products, services };
}

/** Every area asked; the layout that answered first is tried first for the next. */
export async function findAreas(bank: Bank, openapi?: OpenApiFindings): Promise<AreasFound> {
  const areas = {} as Record<Area, AreaFinding>;
  let preferred: string | undefined;
  for (const area of AREAS) {
    areas[area] = await probeArea(bank, area, candidates(openapi, preferred));
    preferred ??= areas[area].layout;
  }
  const payments = areas.payments.paths?.payments;
  return { areas, ...(payments ? await paymentOffer(bank, payments) : { products: [], services: [] }) };
}

/**
 * An area's probe at the path it answered under, sent without Authorization (no scope: no
 * token): a bank that takes no authentication answers it as it answered with one.
 */
export async function probeWithoutToken(bank: Bank, area: Area, path: string): Promise<Answer> {
  if (area === 'directory') return bank.call('GET', path);
  const probe = PROBES[area];
  const id = randomUUID();
  return bank.call(probe.method, `${path}${probe.suffix(id)}`, {
    headers: { ...(bank.answers.psuId ? { 'PSU-ID': bank.answers.psuId } : {}), ...probe.headers?.(id) },
    ...(probe.json !== undefined ? { json: probe.json } : {}),
  });
}
