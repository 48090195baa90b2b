import { readFileSync } from 'node:fs';
import { mergeTests as mergePlaywrightTests, type TestType } from '@playwright/test';
import { REQUIREMENT_ANNOTATION } from './catalogue/req.js';
import { oneGroupPerWorkerAndFile } from './playwright-internals/one-group-per-worker.js';
import { internal } from './config/user-settings.mjs';

/**
 * The self-proof's hand-off to the suite. The self-tests run the suite once against a front that
 * hides many sandboxes, each with one fault (must fail) or one variant (must stay conformant)
 * switched on. The plan, a JSON file named by ENV.proofPlan, lists those entries; with it, every
 * test is declared once per entry that runs its requirements, as Playwright's own
 * parameterisation does it: a test per entry, its title naming the entry and carrying the
 * PROOF_ANNOTATION, by which the harness's fixtures (proofEntryOf, the `proofEntry` fixture) send the entry's header (the front picks the entry's sandbox by
 * it) and mark as expected to fail the checks of the requirements the entry breaks (an expected
 * failure keeps the worker), and the self-proof's reporter groups the results. Without a plan the
 * suite declares its tests once, as written.
 */
export interface ProofPlan {
  /** The request header whose value names the entry (the front's choice of sandbox). */
  header: string;
  /**
   * The declared variant (by its describe annotations, e.g. service and product) that stands
   * for all: an entry with `allVariants: false` runs the other declared variants of a test
   * only when the test names a requirement the entry breaks.
   */
  representative?: Record<string, string>;
  entries: ProofEntry[];
}

export interface ProofEntry {
  id: string;
  kind: 'fault' | 'variant';
  /** Requirements whose checks must fail with this entry on (marked expected to fail). */
  expectFailing: string[];
  /** Requirements whose tests run for this entry. */
  runs: string[];
  /** Every declared variant of its tests, or only the representative one (see ProofPlan). */
  allVariants: boolean;
  /** Profile options the case's tests run under, over the target's (the case's claims). */
  claims?: Record<string, unknown>;
}

/** The annotation (type) naming the entry a test ran for. */
export const PROOF_ANNOTATION = 'proof';

type Annotation = { type: string; description?: string };
type Details = { tag?: string | string[]; annotation?: Annotation | Annotation[] };

const asList = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

let plan: ProofPlan | null | undefined;
/**
 * The describes being declared, innermost last (declaration is synchronous): their annotations,
 * and whether the grouping hook (oneGroupPerWorkerAndFile) is declared in them yet.
 */
const around: { annotations: Annotation[]; hooked: boolean }[] = [];
/** The spec files whose top level has the grouping hook. */
const hookedFiles = new Set<string>();
function loadPlan(): ProofPlan | null {
  if (plan === undefined) {
    const file = internal('proofPlan');
    plan = file ? (JSON.parse(readFileSync(file, 'utf8')) as ProofPlan) : null;
  }
  return plan;
}

/** Per plan, its entries by id. */
const byIds = new WeakMap<ProofPlan, Map<string, ProofEntry>>();

/** A test's entry of the plan, and the header whose value (the entry's id) the front routes by. */
export interface TestProofEntry {
  header: string;
  entry: ProofEntry;
}

/**
 * The plan entry a running test was declared for, by its PROOF_ANNOTATION (none without a plan,
 * or for a test declared outside one): the harness's `proofEntry` fixture
 * (harness/test.ts). Read at run time instead of a `test.use` per entry: a `use` makes every
 * declared test a fixture pool of its own, which each worker and the runner built for every test
 * of the plan (about a sixth of declaring it).
 */
export function proofEntryOf(annotations: Annotation[], p = loadPlan()): TestProofEntry | undefined {
  const id = p ? annotations.find((a) => a.type === PROOF_ANNOTATION)?.description : undefined;
  if (!p || !id) return undefined;
  let byId = byIds.get(p);
  if (!byId) byIds.set(p, (byId = new Map(p.entries.map((e) => [e.id, e]))));
  const entry = byId.get(id);
  return entry && { header: p.header, entry };
}

/** Per plan, the entries that run each requirement, in the plan's order. */
const indexes = new WeakMap<ProofPlan, Map<string, ProofEntry[]>>();
function byRequirement(p: ProofPlan): Map<string, ProofEntry[]> {
  let index = indexes.get(p);
  if (!index) {
    index = new Map();
    for (const e of p.entries) for (const id of new Set(e.runs)) index.set(id, [...(index.get(id) ?? []), e]);
    indexes.set(p, index);
  }
  return index;
}

/**
 * The entries a test naming `ids`, declared under describes annotated `around`, is declared for,
 * in the plan's order: those `entryRuns` accepts, found through an index by requirement (each
 * worker declares every test of the plan: thousands, against hundreds of entries).
 */
export function entriesFor(p: ProofPlan, ids: string[], around: Annotation[]): ProofEntry[] {
  const index = byRequirement(p);
  // One id (most tests): its entries, already in the plan's order. Several: their union, in that order.
  const candidates =
    ids.length === 1
      ? (index.get(ids[0]) ?? [])
      : ((hit) => p.entries.filter((e) => hit.has(e)))(new Set(ids.flatMap((id) => index.get(id) ?? [])));
  return candidates.filter((e) => entryRuns(p, e, ids, around));
}

/**
 * The file declaring a test at its top level: the first frame outside this file, read from the
 * raw call sites (no source map: only the file matters).
 */
function callerFile(): string {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_e, sites) => sites;
  Error.stackTraceLimit = 8;
  try {
    const o: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(o, callerFile);
    const here = o.stack?.[0]?.getFileName();
    return o.stack?.map((c) => c.getFileName() ?? '').find((f) => f !== here) ?? '';
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

/** Splits Playwright's `(title, details?, body)` and `(title, body)` call forms. */
function splitCall(args: unknown[]): { title: string; details: Details; body: unknown } {
  const [title, second, third] = args as [string, unknown, unknown];
  return typeof second === 'function'
    ? { title, details: {}, body: second }
    : { title, details: (second ?? {}) as Details, body: third };
}

/** Whether an entry runs a test that names `ids`, declared under describes annotated `around`. */
export function entryRuns(p: ProofPlan, e: ProofEntry, ids: string[], around: Annotation[]): boolean {
  if (!ids.some((id) => e.runs.includes(id))) return false;
  if (e.allVariants || !p.representative || ids.some((id) => e.expectFailing.includes(id))) return true;
  return Object.entries(p.representative).every(([type, value]) =>
    around.every((a) => a.type !== type || a.description === value),
  );
}

/**
 * Playwright's `mergeTests`, keeping the self-proof's declaration per entry (a merged test is a
 * new test type, which `perProofEntry` has not seen). Tests merge through this one (harness/test.ts
 * exports it; the lint refuses Playwright's in tests/).
 */
export const mergeTests = ((...tests: Parameters<typeof mergePlaywrightTests>) =>
  perProofEntry(mergePlaywrightTests(...tests))) as typeof mergePlaywrightTests;

/**
 * The suite's `test` as the self-proof needs it (the identity without a plan). `extend` keeps the
 * behaviour, so every area's test built on the harness's has it.
 */
export function perProofEntry<T extends TestType<object, object>>(test: T): T {
  if (!loadPlan()) return test;
  const describe = new Proxy(test.describe, {
    apply(target, self, args: unknown[]) {
      const details = typeof args[1] === 'object' && args[1] ? (args[1] as Details) : {};
      around.push({ annotations: asList(details.annotation), hooked: false });
      try {
        return Reflect.apply(target, self, args);
      } finally {
        around.pop();
      }
    },
  });
  return new Proxy(test, {
    get(target, key, receiver) {
      if (key === 'describe') return describe;
      if (key === 'extend')
        return (...fixtures: unknown[]) =>
          perProofEntry((target.extend as (...a: unknown[]) => TestType<object, object>)(...fixtures));
      return Reflect.get(target, key, receiver);
    },
    apply(target, self, args: unknown[]) {
      const p = loadPlan()!;
      const { title, details, body } = splitCall(args);
      const ids = asList(details.annotation)
        .filter((a) => a.type === REQUIREMENT_ANNOTATION && a.description)
        .map((a) => a.description!);
      const entries = entriesFor(
        p,
        ids,
        around.flatMap((d) => d.annotations),
      );
      if (!entries.length) return;
      // The grouping hook once per describe, or once per file at its top level (a hook per test
      // would run before each test, and each hook a step of its own).
      const inner = around.at(-1);
      const file = inner ? undefined : callerFile();
      if (inner ? !inner.hooked : !hookedFiles.has(file!)) {
        target.beforeAll(oneGroupPerWorkerAndFile);
        if (inner) inner.hooked = true;
        else hookedFiles.add(file!);
      }
      for (const e of entries)
        (target as unknown as (...a: unknown[]) => void)(
          `${title} [${e.kind} ${e.id}]`,
          { ...details, annotation: [...asList(details.annotation), { type: PROOF_ANNOTATION, description: e.id }] },
          body,
        );
    },
  });
}
