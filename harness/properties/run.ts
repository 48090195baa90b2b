import fc from 'fast-check';
import { test } from '@playwright/test';
import { loadCatalogue } from '../catalogue/catalogue.js';
import { Blocked, TargetBroken } from '../http/broken.js';
import type { Exchange } from '../http/response.js';
import { redactText } from '../evidence/redact.js';
import { notJudged } from '../test.js';
import { generatedSeed, propertySeed, type Depth } from './settings.js';

/*
 * One property of the generated phase, run with fast-check: cases drawn from an arbitrary, each
 * judged by `check` (which throws to fail), the first failure shrunk to its smallest case. The
 * test's exchanges keep the first case's (a sample of what was sent) and, on a failure, the
 * smallest case's only; the counterexample, the seed, the path and the requirement go in an
 * attachment and in the failure's message, with the command that replays it.
 */

export interface Property<T> {
  /** What the property holds, as the report names it. */
  name: string;
  /** The requirement the property judges (its test names it with req()). */
  requirement: string;
  arbitrary: fc.Arbitrary<T>;
  check: (value: T) => Promise<void>;
  /** The running test's exchanges (the `exchanges` fixture). */
  exchanges: Exchange[];
  depth: Depth;
  /** Cases to run: the depth's `cases` unless given (walks use the depth's `walks`). */
  runs?: number;
  /** Skip a value already tried (not for walks: fast-check's commands shrink by replaying equal-looking values). */
  distinct?: boolean;
  /** Cases tried first, before the generated ones (a boundary the space is small enough to name, every pairing once). */
  examples?: T[];
}

/** What a property run found: for the report and the self-tests. */
export interface PropertyOutcome {
  name: string;
  requirement: string;
  seed: number;
  runSeed: number;
  cases: number;
  failed: boolean;
  counterexample?: string;
  path?: string;
  shrinks?: number;
  shrinkMs?: number;
  error?: string;
}

/** The annotation under which a test records a property's outcome (the report's generated section reads it). */
export const GENERATED_ANNOTATION = 'generated';

const show = (v: unknown): string => {
  try {
    // A run of one character (an oversized text) as the character and its count.
    return redactText(fc.stringify(v))
      .replace(/(.)\1{23,}/gu, (run, ch: string) => `${ch.repeat(3)}…(${Array.from(run).length} × ${ch})`)
      .slice(0, 4000);
  } catch {
    return String(v);
  }
};

/** Runs the property; throws the failure (with its smallest case) if it does not hold. */
export async function runProperty<T>(p: Property<T>): Promise<PropertyOutcome> {
  const info = test.info();
  const seed = propertySeed(info.titlePath.slice(1).join(' › '));
  const runSeed = generatedSeed();
  const keep = p.exchanges.length;
  let cases = 0;
  let failing: Exchange[] = [];
  let firstFailureAt: number | undefined;
  let lastError: unknown;
  const property = fc.asyncProperty(p.arbitrary, async (value) => {
    const mark = p.exchanges.length;
    cases++;
    try {
      await p.check(value);
      // A passing case's exchanges go, but the first case's (a sample of what was sent).
      if (cases > 1) p.exchanges.splice(mark);
    } catch (e) {
      // A broken target or a blocked step is no counterexample: it ends the property as it is.
      if (e instanceof TargetBroken || e instanceof Blocked) throw new Stop(e);
      firstFailureAt ??= Date.now();
      failing = p.exchanges.splice(mark);
      lastError = e;
      throw e;
    }
  });
  const asked = p.runs ?? p.depth.cases;
  const details = await fc.check(property, {
    seed,
    numRuns: asked,
    examples: p.examples?.map((e): [T] => [e]),
    // Bounded in time (generating and shrinking); a value already tried is not sent again.
    plugins: [
      fc.interruptAfterTimeLimit(p.depth.timeLimitMs),
      ...(p.distinct === false ? [] : [fc.ignoreEqualValues()]),
    ],
  });
  const outcome: PropertyOutcome = {
    name: p.name,
    requirement: p.requirement,
    seed,
    runSeed,
    cases,
    failed: details.failed,
  };
  const cut = details.interrupted && !details.failed;
  info.annotations.push({
    type: GENERATED_ANNOTATION,
    description: `${p.name}: ${cases} case(s) judged of ${asked}${cut ? ' (the time bound reached)' : ''}, seed ${seed} (run seed ${runSeed})${details.failed ? ', FAILED' : ''}`,
  });
  const stop = details.errorInstance instanceof Stop ? details.errorInstance.cause : undefined;
  if (stop) throw stop;
  // A property its time bound ended below the floor (half the cases asked) judged too little to pass.
  const floor = floorOf(asked);
  if (cut && cases < floor)
    notJudged(
      `${p.name}: ${cases} of ${asked} case(s) judged before the time bound (${p.depth.timeLimitMs / 1000} s), under the floor of ${floor}; seed ${seed} (run seed ${runSeed})`,
    );
  if (!details.failed) return outcome;
  outcome.counterexample = show((details.counterexample as unknown[] | null)?.[0]);
  outcome.path = details.counterexamplePath ?? undefined;
  outcome.shrinks = details.numShrinks;
  outcome.shrinkMs = firstFailureAt === undefined ? undefined : Date.now() - firstFailureAt;
  outcome.error = redactText((lastError as Error)?.message ?? String(lastError)).slice(0, 4000);
  // The smallest case's exchanges are the test's evidence (the harness attaches them).
  p.exchanges.splice(keep);
  p.exchanges.push(...failing);
  const report = failureReport(outcome);
  info.attachments.push({ name: 'generated counterexample', body: Buffer.from(report), contentType: 'text/plain' });
  throw new Error(report);
}

/** The fewest cases a property must judge, when its time bound ends it, to pass: half the cases asked. */
export const floorOf = (asked: number): number => Math.ceil(asked / 2);

/** Ends a property without shrinking: what was thrown is the test's outcome. */
class Stop extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

/** The failure as the report shows it: property, requirement, smallest case, seed, path, replay. */
export function failureReport(o: PropertyOutcome): string {
  const r = loadCatalogue().byId.get(o.requirement);
  return [
    `Generated property failed: ${o.name}`,
    `Smallest counterexample (after ${o.shrinks} shrink(s), ${o.shrinkMs ?? '?'} ms of shrinking; ${o.cases} case(s) run):`,
    `  ${o.counterexample}`,
    `Got: ${o.error}`,
    `Seed ${o.seed}, path ${o.path} (run seed ${o.runSeed}): \`obg-conformance run --seed ${o.runSeed}\` replays it.`,
    r ? `Requirement ${r.id} (${r.level}), ${r.section}: ${r.text}` : `Requirement ${o.requirement}`,
  ].join('\n');
}
