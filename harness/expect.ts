import { expect as base, test } from '@playwright/test';
import { loadCatalogue } from './catalogue/catalogue.js';
import { redactText } from './evidence/redact.js';
import { ApiResponse, type Exchange } from './http/response.js';
import { pathNames } from './values/json.js';
import { CONTROL_ANNOTATION, REQUIREMENT_ANNOTATION } from './catalogue/req.js';
import { schemaRegistry } from './values/schemas.js';
import { quiet } from './playwright-internals/quiet-expect.js';

type MatcherResult = { pass: boolean; message: () => string; name?: string; expected?: unknown; actual?: unknown };

/** "Requirement: id (MUST) — section", for every requirement the running test names. */
export function requirementContext(): string {
  let ids: string[] = [];
  try {
    ids = test
      .info()
      .annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION)
      .map((a) => a.description ?? '');
  } catch {
    return '';
  }
  const catalogue = loadCatalogue();
  return ids
    .map((id) => {
      const r = catalogue.byId.get(id);
      return r ? `Requirement ${id} (${r.level}), ${r.section}: ${r.text}` : `Requirement ${id}`;
    })
    .join('\n');
}

const show = (v: unknown, max = 200): string => {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return redactText(s.length > max ? `${s.slice(0, max)}…` : s);
};

const finish = (pass: boolean, name: string, lines: string[]): MatcherResult => ({
  pass,
  name,
  message: () => redactText([...lines, requirementContext()].filter(Boolean).join('\n')),
});

const bodyOf = (received: unknown): { data: unknown; where: string } =>
  received instanceof ApiResponse
    ? { data: received.json(), where: received.label }
    : { data: received, where: 'value' };

const statusList = (s: number | number[]) => (Array.isArray(s) ? s : [s]);

/** Names in an answer that carry a resource: its id, or account data, or a token. */
const RESOURCE_KEYS = new Set([
  'paymentId',
  'consentId',
  'basketId',
  'authorisationId',
  'resourceId',
  'accounts',
  'account',
  'balances',
  'transactions',
  'cardAccounts',
  'cardTransactions',
  'access_token',
]);

/** Where a body carries a resource ("$.paymentId"), tppMessages aside (a message may name a field). */
export function resourcesIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => resourcesIn(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'tppMessages' ? [] : [...(RESOURCE_KEYS.has(k) ? [`${path}.${k}`] : []), ...resourcesIn(v, `${path}.${k}`)],
  );
}

/**
 * The refusals of the running test (harness/test.ts opens one per test). A refusal judges its rule
 * only when the bank is seen accepting the same request made valid, of the same kind: at the
 * test's end, each refused request whose kind (operation, payment product, body shape, signed or
 * not: harness/operations/controls.ts `requestKind`) no other call of the test saw accepted names
 * its positive controls, and the fold (harness/reporter/fold.ts) blocks the refusal when one did
 * not pass. Every refusal expected is noted, whatever came back (refused as expected, refused
 * with another code, accepted): a refusal that failed is blocked too when the valid request was
 * never seen accepted.
 */
export interface RefusalLedger {
  /** The requests a refusal matcher judged, each with whether it held (refused as expected). */
  refused: Map<Exchange, boolean>;
}

let ledger: RefusalLedger | undefined;

/** Opens (or, with none, closes) the running test's ledger of refusals. */
export const useRefusalLedger = (l: RefusalLedger | undefined) => {
  ledger = l;
};

/**
 * Names the running test's positive control at run time: the requirement that judges the valid
 * request its refusal is the other side of, for a refusal judged without a refusal matcher (by
 * hand: an OAuth error body, a page, a status read apart). The test then depends on that control
 * alone, and the fold blocks it when the control did not pass.
 */
export function dependsOnControl(id: string): void {
  const info = test.info();
  if (!info.annotations.some((a) => a.type === CONTROL_ANNOTATION && a.description === id))
    info.annotations.push({ type: CONTROL_ANNOTATION, description: id });
}

/**
 * A refusal the test expected, whatever came back: its request is noted in the running test's
 * ledger (the refusal matchers note theirs; a refusal judged by hand, as the generated properties
 * judge theirs, notes its own).
 */
export function noteRefusal(received: unknown, held: boolean) {
  if (!ledger || !(received instanceof ApiResponse)) return;
  const seen = ledger.refused.get(received.exchange);
  ledger.refused.set(received.exchange, seen === undefined ? held : seen && held);
}

const allRefusals = (statuses: number[]) => statuses.length > 0 && statuses.every((s) => s >= 400 && s < 500);

type MatcherThis = { isNot: boolean };

/** The suite's own matchers (Playwright's `expect.extend`). */
const matchers = {
  /** The body (or value) conforms to schema `id`: each problem with its JSON path, keyword and value. */
  toMatchSchema(received: unknown, id: string) {
    const { data, where } = bodyOf(received);
    const problems = schemaRegistry().check(id, data);
    const pass = problems.length === 0;
    return finish(pass, 'toMatchSchema', [
      pass
        ? `Expected ${where} not to match schema "${id}", but it does.`
        : `Expected ${where} to match schema "${id}"; ${problems.length} problem(s):`,
      ...problems.slice(0, 15).map((p) => `  - ${p.path}: ${p.message} [${p.keyword}]; found ${show(p.value)}`),
      problems.length > 15 ? `  … and ${problems.length - 15} more` : '',
    ]);
  },

  /** Status is (one of) `status`. */
  toHaveStatus(this: MatcherThis, received: ApiResponse, status: number | number[]) {
    const allowed = statusList(status);
    const pass = allowed.includes(received.status);
    // Only 4xx allowed: a refusal, which needs its positive control as toBeRefused does.
    if (!this.isNot && allRefusals(allowed)) noteRefusal(received, pass);
    return {
      pass,
      name: 'toHaveStatus',
      message: () =>
        redactText(
          [
            `Expected HTTP ${allowed.join(' or ')}${this.isNot ? ' not' : ''}; got ${received.describe()}`,
            requirementContext(),
          ]
            .filter(Boolean)
            .join('\n'),
        ),
    };
  },

  /** A success: any 2xx (the specification shows no status codes; the exact one is a SHOULD). */
  toSucceed(this: MatcherThis, received: ApiResponse) {
    const pass = received.status >= 200 && received.status < 300;
    return {
      pass,
      name: 'toSucceed',
      message: () =>
        redactText(
          [`Expected a success (HTTP 2xx)${this.isNot ? ' not' : ''}; got ${received.describe()}`, requirementContext()]
            .filter(Boolean)
            .join('\n'),
        ),
    };
  },

  /**
   * A Berlin Group error: status (one of) `status`, a JSON body with a non-empty `tppMessages`
   * array of {category, code, path?, text?} strings, one message whose code is (one of) `code`
   * and, with `path`, one message whose path names that field (its whole JSON path, in any notation).
   */
  toBeTppError(
    this: MatcherThis,
    received: ApiResponse,
    status: number | number[],
    code?: string | string[],
    options: { path?: string } = {},
  ) {
    const allowedStatus = statusList(status);
    const codes = code === undefined ? [] : Array.isArray(code) ? code : [code];
    const problems: string[] = [];
    if (!allowedStatus.includes(received.status))
      problems.push(`status ${received.status}, expected ${allowedStatus.join(' or ')}`);
    const body = received.body as { tppMessages?: unknown } | undefined;
    if (!received.isJson) problems.push(`body is not JSON (${received.contentType})`);
    else {
      const shape = schemaRegistry().check('common/error', body);
      for (const p of shape) problems.push(`${p.path}: ${p.message} [${p.keyword}]; found ${show(p.value)}`);
      const found = Array.isArray(body?.tppMessages)
        ? (body!.tppMessages as { code?: unknown }[]).map((m) => m?.code)
        : [];
      if (codes.length && !found.some((c) => codes.includes(String(c)))) {
        problems.push(`tppMessages codes ${show(found)}, expected ${codes.join(' or ')}`);
      }
      if (options.path !== undefined) {
        const paths = Array.isArray(body?.tppMessages)
          ? (body!.tppMessages as { path?: unknown }[]).map((m) => m?.path).filter((p) => typeof p === 'string')
          : [];
        if (!paths.some((p) => pathNames(p, options.path!)))
          problems.push(`tppMessages paths ${show(paths)}, expected one naming ${options.path}`);
      }
    }
    const pass = problems.length === 0;
    if (!this.isNot && allRefusals(allowedStatus)) noteRefusal(received, pass);
    const expected = `HTTP ${allowedStatus.join('/')}${codes.length ? ` with tppMessages code ${codes.join(' or ')}` : ' with a tppMessages body'}${options.path !== undefined ? ` and a path naming ${options.path}` : ''}`;
    return {
      pass,
      name: 'toBeTppError',
      message: () =>
        redactText(
          [
            this.isNot
              ? `Expected anything but ${expected}; got it.`
              : `Expected ${expected}; got ${received.describe()}`,
            ...problems.map((p) => `  - ${p}`),
            requirementContext(),
          ]
            .filter(Boolean)
            .join('\n'),
        ),
    };
  },

  /**
   * A refusal: a 4xx (exactly `status`, or one of them, when given) that carries no data: no
   * resource id (paymentId, consentId, basketId, authorisationId, …), no account data, no token.
   * A Berlin Group error body, an OAuth error body, an empty body or a page are all refusals.
   */
  toBeRefused(this: MatcherThis, received: ApiResponse, status?: number | number[]) {
    const allowed = status === undefined ? undefined : statusList(status);
    const problems: string[] = [];
    const is4xx = received.status >= 400 && received.status < 500;
    if (!is4xx || (allowed && !allowed.includes(received.status)))
      problems.push(`status ${received.status}, expected ${allowed ? allowed.join(' or ') : 'a 4xx'}`);
    const resources = resourcesIn(received.body);
    if (resources.length) problems.push(`the body carries ${resources.slice(0, 5).join(', ')}`);
    const pass = problems.length === 0;
    if (!this.isNot) noteRefusal(received, pass);
    const expected = `a refusal: HTTP ${allowed ? allowed.join(' or ') : '4xx'} carrying no data`;
    return {
      pass,
      name: 'toBeRefused',
      message: () =>
        redactText(
          [
            this.isNot
              ? `Expected anything but ${expected}; got it: ${received.describe()}`
              : `Expected ${expected}; got ${received.describe()}`,
            ...problems.map((p) => `  - ${p}`),
            requirementContext(),
          ]
            .filter(Boolean)
            .join('\n'),
        ),
    };
  },

  /** Header `name` is present (case-insensitively) and, if given, equals or matches `expected`. */
  toHaveHeader(this: MatcherThis, received: ApiResponse, name: string, expected?: string | RegExp) {
    const actual = received.header(name);
    const pass =
      actual !== undefined &&
      (expected === undefined || (typeof expected === 'string' ? actual === expected : expected.test(actual)));
    const want =
      expected === undefined
        ? 'present'
        : typeof expected === 'string'
          ? `= ${show(expected)}`
          : `matching ${expected}`;
    return {
      pass,
      name: 'toHaveHeader',
      message: () =>
        redactText(
          [
            `Expected response header ${name}${this.isNot ? ' not' : ''} ${want}; ${actual === undefined ? 'it is absent' : `found ${show(actual)}`} (${received.label})`,
            requirementContext(),
          ]
            .filter(Boolean)
            .join('\n'),
        ),
    };
  },

  /** The response echoes the request's X-Request-ID. */
  toEchoRequestId(this: MatcherThis, received: ApiResponse) {
    const sent = Object.entries(received.exchange.requestHeaders).find(
      ([k]) => k.toLowerCase() === 'x-request-id',
    )?.[1];
    const actual = received.header('x-request-id');
    const pass = !!sent && actual === sent;
    return {
      pass,
      name: 'toEchoRequestId',
      message: () =>
        [
          `Expected response header X-Request-ID to echo the request's ${show(sent)}; ${actual === undefined ? 'it is absent' : `found ${show(actual)}`} (${received.label})`,
          requirementContext(),
        ]
          .filter(Boolean)
          .join('\n'),
    };
  },
};

/**
 * Playwright's `expect` with the suite's matchers. An assertion that holds makes no step; one that
 * fails is Playwright's own, with its step, stack and message (harness/playwright-internals/quiet-expect.ts says why).
 * A matcher here is called twice when it fails (once there, once by Playwright): its side effect,
 * noting a refusal's request and whether it held, goes into a map, so it is noted once.
 */
export const expect = quiet(base.extend(matchers), matchers);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace PlaywrightTest {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameters of Playwright's own declaration
    interface Matchers<R, T> {
      toMatchSchema(id: string): R;
      toHaveStatus(status: number | number[]): R;
      toSucceed(): R;
      toBeTppError(status: number | number[], code?: string | string[], options?: { path?: string }): R;
      toBeRefused(status?: number | number[]): R;
      toHaveHeader(name: string, expected?: string | RegExp): R;
      toEchoRequestId(): R;
    }
  }
}

/**
 * A custom message for built-in matchers, followed by the running test's requirements. Redacted:
 * it names the step Playwright and the Allure results record, the assertion passed or not, and it
 * often quotes an answer (a token answer's body among them).
 */
export function because(what: string): string {
  const ctx = requirementContext();
  const text = redactText(what);
  return ctx ? `${text}\n${ctx}` : text;
}
