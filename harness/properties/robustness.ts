import fc from 'fast-check';
import { test } from '@playwright/test';
import type { Profile } from '../config/profile.js';
import type { Target } from '../config/target.js';
import { noteRefusal, resourcesIn } from '../expect.js';
import type { ApiResponse } from '../http/response.js';
import { Blocked } from '../http/broken.js';
import { notPointingAt } from '../http/link-target.js';
import { label, type Combination } from '../areas/payments.js';
import {
  operation,
  unclaimedOperation,
  type Bound,
  type CallOptions,
  type Operation,
  type OperationWorld,
} from '../operations.js';
import { getPath, withPath, type Json } from '../values/json.js';
import { schemaRegistry } from '../values/schemas.js';
import type { QueryValue } from '../http/client.js';
import {
  bodyChanges,
  CANONICAL,
  changedBody,
  changedId,
  classOf,
  headerValues,
  idChanges,
  missesAt,
  nearMiss,
  NEAR_MISSES,
  queryChanges,
  stringsOf,
  TEXT_CLASSES,
  textsAt,
  wholeChanges,
  wholeRequest,
  type BodyChange,
  type IdChange,
  type NearMiss,
  type WholeChange,
} from './robustness-cases.js';

/*
 * The robustness properties: any input outside what the specification defines, sent to the
 * operations of the operations table (harness/operations/), and judged by what holds for any
 * input: never a 5xx; a refusal is a 4xx whose body has the error shape (tppMessages: "408, 415,
 * 500 and 503 carry headers only") and creates nothing (carries no resource, and the resource a
 * state-changing call acts on reads as before); an acceptance answers its schema, and a free text
 * it took reads back as sent, or as sent under the normalisation the profile declares
 * (`texts.normalisation`: trim, fold).
 */

/** What a property sends its changes to: one operation (on one payment service and product), and what is drawn for it. */
export interface Subject {
  operation: string;
  combination?: Combination;
  /** The body the changes are drawn over (the operation's valid body); sent as it is with `fixed`, else the bound call's own body of the same shape. */
  sample?: Json;
  fixed?: boolean;
  /** The free-text paths of the body: drawn more often, and read back when accepted. */
  texts?: string[];
  /** Reads back what an accepted call created (its answer given); the texts are looked for at their paths in the read. */
  readBack?: (created: ApiResponse) => Promise<ApiResponse | undefined>;
  /** A read's query parameters, each with a valid value: the query changes are drawn over them. */
  query?: Record<string, string>;
  /** The query the read sends beside a case's changes (its own, as the operations table makes it). */
  queryBase?: Record<string, string>;
  /** The path id is changed (the resource the path names). */
  id?: boolean;
  /** Header values outside their forms, on the headers the operation takes. */
  headers?: boolean;
  /** Headers of this subject alone (FX-Quote-Id on an international-tp payment): drawn with the others, and each tried first with each of HEADER_EXAMPLES. */
  extraHeaders?: string[];
  /** Whole-body changes (malformed JSON, other content types). */
  whole?: boolean;
  /** The schema an acceptance answers, where it is not the operation's (an update PSU data body without a method: the decoupled answer). */
  response?: string;
  /** Every string of the body tried first with each near miss and each class of text (a body with few strings and no free texts). */
  sweep?: boolean;
}

/** One case: the subject (by its index) and the change made. */
export type RobustCase =
  | { on: number; texts: Record<string, string> }
  | { on: number; misses: Record<string, NearMiss> }
  | { on: number; body: BodyChange[] }
  | { on: number; whole: WholeChange }
  | { on: number; id: IdChange }
  | { on: number; query: Record<string, QueryValue> }
  | { on: number; header: { name: string; value: string } };

/** The headers an operation takes whose values a case may send outside their forms. */
export function headerNames(o: Operation): string[] {
  return [
    'X-Request-ID',
    ...(o.requires.includes('PSU-IP-Address') ? ['PSU-IP-Address'] : []),
    ...(o.accepts.includes('psu-forwarded')
      ? ['PSU-IP-Port', 'PSU-User-Agent', 'PSU-Geo-Location', 'PSU-Device-ID', 'PSU-Accept-Language', 'PSU-Http-Method']
      : []),
    ...(o.accepts.includes('redirect') ? ['TPP-Redirect-URI', 'TPP-Redirect-Preferred'] : []),
    ...(o.accepts.includes('notification') ? ['TPP-Notification-URI'] : []),
  ];
}

/** The paths texts outside the set go to: the free texts, else every string of the body. */
const textPaths = (s: Subject) => (s.texts?.length ? s.texts : s.sample ? stringsOf(s.sample) : []);

/**
 * The cases over `subjects`: each subject's kinds of change (texts outside the set at some of its
 * free texts, near misses at some of its strings, structural changes of its body, whole-body
 * changes, path ids, query parameters, header values).
 */
export function robustCases(subjects: Subject[]): fc.Arbitrary<RobustCase> {
  const options = subjects.flatMap((s, on): fc.Arbitrary<RobustCase>[] => {
    const strings = s.sample ? stringsOf(s.sample) : [];
    const texts = textPaths(s);
    return [
      ...(texts.length ? [fc.record({ on: fc.constant(on), texts: textsAt(texts) })] : []),
      ...(strings.length ? [fc.record({ on: fc.constant(on), misses: missesAt(strings) })] : []),
      ...(s.sample ? [fc.record({ on: fc.constant(on), body: bodyChanges(s.sample) })] : []),
      ...(s.sample && s.whole ? [fc.record({ on: fc.constant(on), whole: wholeChanges })] : []),
      ...(s.id ? [fc.record({ on: fc.constant(on), id: idChanges })] : []),
      ...(s.query ? [fc.record({ on: fc.constant(on), query: queryChanges(s.query) })] : []),
      ...(s.headers
        ? [
            fc.record({
              on: fc.constant(on),
              header: fc.record({
                name: fc.constantFrom(...headerNames(operation(s.operation)), ...(s.extraHeaders ?? [])),
                value: headerValues,
              }),
            }),
          ]
        : []),
    ];
  });
  return fc.oneof(...options);
}

/** The values a subject's own headers are tried with first: Latin-1, spaces at either end, long, empty. */
const HEADER_EXAMPLES = ['Müller é', '  padded  ', 'a'.repeat(5000), ''];

const every = <T>(paths: string[], value: T): Record<string, T> => Object.fromEntries(paths.map((p) => [p, value]));

/**
 * The cases tried first, so that a defect of one class in one field is found at any depth (then
 * shrunk to that field): for each subject with free texts, each class of text in every free text
 * at once; for each subject flagged `sweep`, each near miss in every string at once too; for each
 * read with a query, each parameter alone with a value outside its form.
 */
export function robustExamples(subjects: Subject[]): RobustCase[] {
  return subjects.flatMap((s, on): RobustCase[] => {
    const texts = textPaths(s);
    return [
      ...(texts.length && (s.texts?.length || s.sweep)
        ? TEXT_CLASSES.map((cls) => ({ on, texts: every(texts, CANONICAL[cls]) }))
        : []),
      ...(s.sweep && s.sample ? NEAR_MISSES.map((m) => ({ on, misses: every(stringsOf(s.sample!), m) })) : []),
      ...Object.keys(s.query ?? {}).map((name) => ({ on, query: { [name]: 'é' } })),
      ...(s.extraHeaders ?? []).flatMap((name) => HEADER_EXAMPLES.map((value) => ({ on, header: { name, value } }))),
    ];
  });
}

/** The case as one line: what was changed, where, to what (long values cut). */
export function describeCase(s: Subject, c: RobustCase): string {
  const cut = (v: unknown) => {
    const t = JSON.stringify(v) ?? String(v);
    return t.length > 60 ? `${t.slice(0, 40)}…(${t.length} characters)` : t;
  };
  const on = `${s.operation}${s.combination ? ` (${label(s.combination)})` : ''}`;
  if ('texts' in c)
    return `${on}: ${Object.entries(c.texts)
      .map(([p, v]) => `${p} = ${cut(v)} (${classOf(v)})`)
      .join('; ')}`;
  if ('misses' in c)
    return `${on}: ${Object.entries(c.misses)
      .map(([p, m]) => `${p} = ${cut(nearMiss(String(getPath(s.sample, p)), m))} (${m})`)
      .join('; ')}`;
  if ('body' in c)
    return `${on}: ${c.body
      .map((b) =>
        b.kind === 'other-type'
          ? `${b.path} = ${cut(b.value)} (another type)`
          : b.kind === 'unknown-property'
            ? `unknown property ${cut(b.name)} = ${cut(b.value)} at ${b.path || 'the body'}`
            : b.kind === 'oversized-array'
              ? `${b.path} of ${b.length} items`
              : `${b.path} ${b.kind}`,
      )
      .join('; ')}`;
  if ('whole' in c)
    return `${on}: ${c.whole.kind === 'content-type' ? `Content-Type ${cut(c.whole.contentType)}` : `malformed JSON (${c.whole.how})`}`;
  if ('id' in c) return `${on}: path id ${cut(c.id)}`;
  if ('query' in c)
    return `${on}: ${Object.entries(c.query)
      .map(([n, v]) => `${n}=${cut(v)}`)
      .join('&')}`;
  return `${on}: header ${c.header.name}: ${cut(c.header.value)}`;
}

/** A text as the profile lets it read back: as sent, trimmed, folded (marks off, other characters outside printable ASCII as one or two of the bank's choosing, or none), or both. */
export function readsAsSent(sent: string, read: unknown, normalisation: readonly string[]): boolean {
  if (read === sent) return true;
  if (typeof read !== 'string') return false;
  const candidates = [sent, ...(normalisation.includes('trim') ? [sent.trim()] : [])];
  if (candidates.includes(read)) return true;
  if (!normalisation.includes('fold')) return false;
  return candidates.some(
    (c) => folded(c).test(read) || (normalisation.includes('trim') && folded(c).test(read.trim())),
  );
}

/** The texts `sent` may fold to, as a pattern. */
function folded(sent: string): RegExp {
  const bare = sent.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const parts = Array.from(bare).map((ch) =>
    /^[\x20-\x7e]$/.test(ch) ? ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '[^]{0,2}',
  );
  return new RegExp(`^${parts.join('')}$`, 'u');
}

const succeeded = (r: ApiResponse) => r.status >= 200 && r.status < 300;
/**
 * The refusals whose body may be empty: "408, 415, 500 and 503 carry headers only", and the HTTP
 * server's own limits, given before the API sees the call (413 a body, 414 a URL, 431 headers too large).
 */
const HEADERS_ONLY = new Set([408, 413, 414, 415, 431]);

/** The id at a path's position of the template's last id (`{consentId}`, `{paymentId}`…), changed. */
function withChangedId(o: Operation, path: string, change: IdChange): string {
  const t = o.template.split('/');
  const last = t
    .map((seg, i) => (/^\{(.*[iI]d|bicFi|isoCountryCode)\}$/.test(seg) ? i : -1))
    .filter((i) => i >= 0)
    .pop();
  if (last === undefined) return path;
  const fromEnd = t.length - 1 - last;
  const segs = path.split('/');
  const at = segs.length - 1 - fromEnd;
  segs[at] = changedId(decodeURIComponent(segs[at]), change);
  return segs.join('/');
}

/** The id member of a creation's answer, by the operation that creates. */
const CREATED: Record<string, string> = {
  'payments.initiate': 'paymentId',
  'consents.create': 'consentId',
  'signing-baskets.create': 'basketId',
  'direct-debit.create': 'paymentId',
};

/**
 * What an accepted call's answer must be beside its schema, as the hand-written checks judge the
 * same operation's valid answer: a body in JSON (its Content-Type), and for a creation its links
 * pointing at the resource created (harness/http/link-target.ts) and a transactionStatus, when
 * given, of RCVD ("none → RCVD").
 */
function createdProblems(b: Bound, res: ApiResponse, target: Pick<Target, 'baseUrl' | 'profile'>): string[] {
  const problems: string[] = [];
  if (res.text.length && !/^application\/([\w.+-]*\+)?json\b/i.test(res.contentType))
    problems.push(`its body in JSON: Content-Type ${res.contentType}`);
  const member = CREATED[b.op.id];
  const body = res.body as { _links?: Record<string, { href?: unknown }>; transactionStatus?: unknown } | undefined;
  const id = member ? (body as Record<string, unknown> | undefined)?.[member] : undefined;
  if (typeof id !== 'string') return problems;
  if (b.op.group === 'payments' && body?.transactionStatus !== undefined && body.transactionStatus !== 'RCVD')
    problems.push(`transactionStatus RCVD on creation, got ${JSON.stringify(body.transactionStatus)}`);
  if (b.op.group !== 'direct-debit')
    for (const [name, link] of Object.entries(body?._links ?? {})) {
      if (typeof link?.href !== 'string') continue;
      const wrong = notPointingAt(target, { name, href: link.href }, { id, what: b.op.name });
      if (wrong) problems.push(wrong);
    }
  return problems;
}

/** What a case sends: its call options over the bound operation's own. */
function callOf(b: Bound, s: Subject, c: RobustCase): { options: CallOptions; sent?: Json } {
  const base = (s.fixed ? s.sample : (b.body as Json | undefined)) ?? s.sample ?? {};
  if ('texts' in c || 'misses' in c || 'body' in c) {
    let sent = base;
    if ('texts' in c) for (const [p, v] of Object.entries(c.texts)) sent = withPath(sent, p, v);
    if ('misses' in c)
      for (const [p, m] of Object.entries(c.misses))
        if (typeof getPath(sent, p) === 'string') sent = withPath(sent, p, nearMiss(getPath(sent, p) as string, m));
    if ('body' in c) sent = c.body.reduce((body, change) => changedBody(body, change), sent);
    return { options: { json: sent }, sent };
  }
  if ('whole' in c) {
    const { raw, contentType } = wholeRequest(base, c.whole);
    return { options: { raw, headers: { 'Content-Type': contentType || null } } };
  }
  if ('id' in c) return { options: { path: (p) => withChangedId(b.op, p, c.id) } };
  if ('query' in c) return { options: { query: { ...s.queryBase, ...c.query } } };
  return {
    options: { headers: { [c.header.name]: c.header.value }, ...(s.fixed && s.sample ? { json: s.sample } : {}) },
  };
}

/**
 * Binds a subject's operation: a read once, on the test's world; a state-changing one on a world
 * of its own per case. An operation whose prerequisite failed (a step blocked, naming its
 * requirement) is left out, noted (undefined); the property is blocked only when every one is.
 */
function binderOf(world: OperationWorld, subjects: Subject[]) {
  const reads = new Map<number, Promise<Bound>>();
  const blocked = new Set<number>();
  return async (on: number): Promise<Bound | undefined> => {
    if (blocked.has(on)) return undefined;
    const s = subjects[on];
    const o = operation(s.operation);
    try {
      if (o.changes) return await world.fork().bind(o, s.combination);
      if (!reads.has(on)) reads.set(on, world.bind(o, s.combination));
      return await reads.get(on)!;
    } catch (e) {
      if (!(e instanceof Blocked)) throw e;
      blocked.add(on);
      if (blocked.size === subjects.length) throw e;
      test.info().annotations.push({ type: 'not judged', description: `${o.name}: ${e.message.split('\n')[0]}` });
      return undefined;
    }
  };
}

/**
 * The property's check over `subjects`: binds the subject's operation (a read once, on the test's
 * world; a state-changing one on a world of its own per case), sends the case and judges the answer.
 */
export function robustCheck(world: OperationWorld, subjects: Subject[], normalisation: readonly string[]) {
  const bind = binderOf(world, subjects);
  return async (c: RobustCase): Promise<void> => {
    const s = subjects[c.on];
    const b = await bind(c.on);
    if (!b) return;
    const what = `${b.label}: ${describeCase(s, c)}`;
    const { options, sent } = callOf(b, s, c);
    const before = await b.state?.();
    const res = await b.call({ ...options, allow5xx: true });
    if (res.status >= 500)
      throw new Error(
        `${what}: expected no server error (a 4xx refusal or an acceptance); got HTTP ${res.status}: ${res.describe()}`,
      );
    if (res.status >= 400) {
      // A refusal proves its rule only beside the same kind of request seen accepted (the refusal
      // ledger of harness/expect.ts; the fold blocks it by the operation's control otherwise).
      const data = resourcesIn(res.body);
      const problems = HEADERS_ONLY.has(res.status) ? [] : schemaRegistry().check('common/error', res.body);
      noteRefusal(res, !data.length && !problems.length);
      if (data.length)
        throw new Error(`${what}: a refusal must create nothing; got ${res.describe()}, carrying ${data.join(', ')}`);
      if (problems.length)
        throw new Error(
          `${what}: a refusal carries the error shape (a JSON body with a non-empty tppMessages array of category, code, path, text); got HTTP ${res.status}: ${res.describe()}: ${problems
            .slice(0, 3)
            .map((p) => `${p.path}: ${p.message}`)
            .join('; ')}`,
        );
      const after = b.state ? await b.state() : undefined;
      if (before !== after)
        throw new Error(`${what}: a refused call must change nothing; before it ${before}, after it ${after}`);
      return;
    }
    if (!succeeded(res)) throw new Error(`${what}: expected a 4xx refusal or a 2xx acceptance; got ${res.describe()}`);
    const schema = s.response ?? b.op.response;
    if (schema && res.status !== 204 && res.body !== undefined && res.text.length) {
      const problems = schemaRegistry().check(schema, res.body);
      if (problems.length)
        throw new Error(
          `${what}: accepted, the answer must match ${schema}: ${problems
            .slice(0, 3)
            .map((p) => `${p.path}: ${p.message}`)
            .join('; ')}`,
        );
    }
    const created = createdProblems(b, res, world.c.consents.api.target);
    if (created.length)
      throw new Error(`${what}: accepted, its answer must be as a valid one's: ${created.join('; ')}`);
    // An empty text taken is not read back: what a bank stores for it is another requirement's
    // (payments.initiate.creditor-name-empty: a bank may fill in an empty creditorName).
    const texts = 'texts' in c ? Object.keys(c.texts).filter((p) => s.texts?.includes(p) && c.texts[p] !== '') : [];
    if (!texts.length || !s.readBack || !sent) return;
    const read = await s.readBack(res);
    if (!read) return;
    if (read.status >= 500 || !succeeded(read))
      throw new Error(`${what}: accepted, its read back must succeed; got ${read.describe()}`);
    const got = read.json();
    const wrong = texts.flatMap((t) => {
      const was = getPath(sent, t) as string;
      const now = getPath(got, t);
      // Judged where the read gives the field at its path (a read may answer an object in another shape).
      return now === undefined || readsAsSent(was, now, normalisation)
        ? []
        : [`${t}: sent ${JSON.stringify(was).slice(0, 80)}, read ${JSON.stringify(now)?.slice(0, 80)}`];
    });
    if (wrong.length)
      throw new Error(
        `${what}: accepted, every text must read back as sent${normalisation.length ? ` (or ${normalisation.join(' and ')}, as the profile declares)` : ' (the profile declares no normalisation: texts.normalisation)'}: ${wrong.join('; ')}`,
      );
  };
}

/** The subjects whose operation the profile claims (the test skipped when none is, each left out noted). */
export function claimedSubjects(profile: Profile, subjects: Subject[]): Subject[] {
  const claimed = subjects.filter((s) => !unclaimedOperation(profile, operation(s.operation)));
  for (const s of subjects.filter((x) => !claimed.includes(x)))
    test.info().annotations.push({
      type: 'not claimed',
      description: `${operation(s.operation).name}: ${unclaimedOperation(profile, operation(s.operation))}`,
    });
  test.skip(!claimed.length, 'not claimed: the profile claims none of the operations this property sends input to');
  return claimed;
}

/** The property's cases: the examples, then the depth's `drawn` cases. */
export function robustProperty(world: OperationWorld, profile: Profile, subjects: Subject[], drawn: number) {
  const examples = robustExamples(subjects);
  return {
    arbitrary: robustCases(subjects),
    check: robustCheck(world, subjects, profile.texts.normalisation),
    examples,
    runs: examples.length + drawn,
  };
}
