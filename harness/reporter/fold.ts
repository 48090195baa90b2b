import { stripVTControlCharacters } from 'node:util';
import { relative } from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalogue, type Requirement } from '../catalogue/catalogue.js';
import { fromRoot } from '../config/paths.js';
import { blockedBy, isBrokenMessage, isSuiteError } from '../http/broken.js';
import {
  ACCEPTED_ANNOTATION,
  CONTROL_ANNOTATION,
  NOT_JUDGED_ANNOTATION,
  REFUSED_KIND_ANNOTATION,
  REQUIREMENT_ANNOTATION,
} from '../catalogue/req.js';
import { toResult, type RequirementResult, type TestOutcome } from './verdicts.js';

/** The requirement ids a test names (through `req(...)`). */
export const requirementsOf = (test: TestCase): string[] =>
  test.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION && a.description).map((a) => a.description!);

/** The positive controls a test's refusals name (harness/expect.ts), static or recorded as it ran. */
export const controlsOf = (test: TestCase, result: TestResult): string[] => [
  ...new Set(
    [...test.annotations, ...(result.annotations ?? [])]
      .filter((a) => a.type === CONTROL_ANNOTATION && a.description)
      .map((a) => a.description!),
  ),
];

const recorded = (type: string, test: TestCase, result: TestResult): string[] => [
  ...new Set(
    [...test.annotations, ...(result.annotations ?? [])]
      .filter((a) => a.type === type && a.description)
      .map((a) => a.description!),
  ),
];

/** The kinds of request a test saw accepted (harness/test.ts): each controls a refusal of its kind anywhere in the run. */
export const acceptedKindsOf = (test: TestCase, result: TestResult): string[] =>
  recorded(ACCEPTED_ANNOTATION, test, result);

/**
 * A refusal's kinds of request not seen accepted in its own test, with its controls when it names
 * any; and what the test names as not judged beside its verdict (an operation it could not prepare).
 */
const controlled = (test: TestCase, result: TestResult) => {
  const controls = controlsOf(test, result);
  const refusedKinds = recorded(REFUSED_KIND_ANNOTATION, test, result);
  const notJudged = recorded(NOT_JUDGED_ANNOTATION, test, result).map((n) => stripVTControlCharacters(n));
  return {
    ...(controls.length ? { controls } : {}),
    ...(refusedKinds.length ? { refusedKinds } : {}),
    ...(notJudged.length ? { notJudged } : {}),
  };
};

/** One test's verdict: a timeout, an interruption or a TargetBroken error is "broken", not "failed". */
export function testOutcome(test: TestCase, result: TestResult): TestOutcome {
  const file = relative(fromRoot(), test.location.file);
  // The title path below the project and the file: describes, then the test.
  const title = test.titlePath().slice(3).join(' › ') || test.title;
  const message = stripVTControlCharacters(
    result.errors.map((e) => e.message ?? e.value ?? '').join('\n') ||
      (result.status === 'skipped' ? (test.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped') : ''),
  ).slice(0, 4000);
  switch (result.status) {
    case 'passed':
      return { title, file, status: 'passed', message: '', ...controlled(test, result) };
    case 'skipped':
      return { title, file, status: 'skipped', message };
    case 'timedOut':
      return {
        title,
        file,
        status: 'broken',
        message: `the test did not finish in ${test.timeout} ms (target too slow or hung). ${message}`,
      };
    case 'interrupted':
      return { title, file, status: 'broken', message: `interrupted. ${message}` };
    default: {
      if (isBrokenMessage(message)) return { title, file, status: 'broken', message };
      // The harness's own exception is no verdict on the target; its stack goes with it.
      if (isSuiteError(message)) {
        const stack = stripVTControlCharacters(result.errors.map((e) => e.stack ?? '').join('\n')).slice(0, 4000);
        return {
          title,
          file,
          status: 'broken',
          message: `suite error (not a verdict on the target): ${stack || message}`,
        };
      }
      // A failed step another requirement judges: blocked, unless this test judges that requirement itself.
      const by = blockedBy(message);
      if (by && !requirementsOf(test).includes(by)) return { title, file, status: 'blocked', message, blockedBy: by };
      // A failed refusal names its controls too: it is judged only where the valid request was seen accepted.
      return { title, file, status: 'failed', message, ...controlled(test, result) };
    }
  }
}

/** The features a requirement needs that the profile does not claim (none for an unknown id). */
const unclaimedOf = (claimed: ReadonlySet<string>) => {
  let byId: Map<string, Requirement> | undefined;
  return (id: string): string[] => {
    try {
      byId ??= loadCatalogue().byId;
    } catch {
      return [];
    }
    return byId.get(id)?.features.filter((f) => !claimed.has(f)) ?? [];
  };
};

/**
 * An unclaimed requirement never blocks a claimed one: a test blocked by a step whose requirement
 * the profile does not claim (its bank offers no such thing, and says so) is not judged, naming
 * that step, instead of blocked as if the bank had failed it.
 */
function notBlockedByUnclaimed(outcome: TestOutcome, unclaimed: (id: string) => string[]): TestOutcome {
  if (outcome.status !== 'blocked' || !outcome.blockedBy) return outcome;
  const features = unclaimed(outcome.blockedBy);
  if (!features.length) return outcome;
  const { blockedBy, ...rest } = outcome;
  return {
    ...rest,
    status: 'skipped',
    message: `not judged: a step it needs is judged by ${blockedBy}, which the profile does not claim (${features.join(', ')}): ${outcome.message.split('\n')[0].slice(0, 300)}`,
  };
}

/**
 * Folds test outcomes into one verdict per requirement in scope. A requirement no test judged
 * is "untested", or "skipped" (not claimed) when the profile does not claim its features.
 */
export function foldRequirements(
  inScope: Requirement[],
  outcomes: Iterable<{ test: TestCase; result: TestResult }>,
  claimed: ReadonlySet<string>,
  options: FoldOptions = {},
): RequirementResult[] {
  const byReq = new Map<string, TestOutcome[]>();
  const accepted = new Set<string>();
  const unclaimedRoot = unclaimedOf(claimed);
  for (const { test, result } of outcomes) {
    for (const kind of acceptedKindsOf(test, result)) accepted.add(kind);
    const outcome = notBlockedByUnclaimed(testOutcome(test, result), unclaimedRoot);
    for (const id of requirementsOf(test)) {
      if (!byReq.has(id)) byReq.set(id, []);
      byReq.get(id)!.push(outcome);
    }
  }
  const results = inScope.map((r) => {
    const res = toResult(r, byReq.get(r.id) ?? []);
    if (res.verdict === 'untested' && r.features.some((f) => !claimed.has(f))) {
      res.verdict = 'skipped';
      res.tests = [
        {
          title: '(no test ran)',
          file: '',
          status: 'skipped',
          message: `not claimed: ${r.features.filter((f) => !claimed.has(f)).join(', ')}`,
        },
      ];
    }
    return res;
  });
  return blockUncontrolled(results, inScope, { ...options, accepted: options.accepted ?? accepted });
}

export interface FoldOptions {
  /**
   * A control the fold has no verdict for (its tests did not run here): 'block' (the default: the
   * refusal is blocked, its valid request never seen accepted) or 'keep' (the refusal stands; for
   * a run narrowed to other checks, whose controls are judged by a complete run).
   */
  unrunControls?: 'block' | 'keep';
  /** The kinds of request seen accepted in the run (foldRequirements gathers them from every test). */
  accepted?: ReadonlySet<string>;
  /**
   * One shard of a run: a refusal whose kind of request this shard did not see accepted is blocked
   * here as in any run (a shard of a bank refusing everything passes no refusal), keeping what it
   * judged in `deferred`; the merge gives that back where another shard saw the kind accepted.
   */
  deferUnseen?: boolean;
}

/**
 * The verdict under which a control shows the bank accepting the valid request: passed alone (a
 * SHOULD control that warned saw the valid request answered otherwise than its rule says).
 */
const CONTROL_HELD = new Set(['passed']);

/** The test verdicts a control can take away: a refusal that passed, or that failed (at any level). */
const JUDGED = new Set(['passed', 'failed', 'warning']);

/**
 * No vacuous refusal: a refusal is controlled by an observed acceptance of the same kind of request
 * (a 2xx, with the created id where the operation creates one), in its own test or in any test of
 * the run (`refusedKinds` all among `options.accepted`), whatever the control requirement's shape
 * rules said of that answer. Else a test whose refusals name a positive control (the requirement
 * that judges the same request made valid), passed or failed (refused with another code, or
 * accepted), is blocked when that control did not pass here (failed, warning, blocked, broken,
 * untested or not run), naming the root cause: the control, or the requirement that blocked it; it
 * is not judged (skipped) when its control was not judged here. Repeated until nothing changes (a
 * control may be a refusal's too). A control named by hand (dependsOnControl, controlledBy) is
 * judged by its requirement's verdict alone.
 */
/**
 * Whether a call of the refused kind was seen accepted: the same key (harness/operations/controls.ts
 * `requestKind`: operation | service/product | body shape | signed), or, for a call on a product the
 * specification does not know (`*`), the same operation, body shape and signature on any product.
 */
export function seenAccepted(kind: string, accepted: ReadonlySet<string> | undefined): boolean {
  if (!accepted) return false;
  if (accepted.has(kind)) return true;
  const [operation, params, ...rest] = kind.split(' | ');
  if (params !== '*') return false;
  return [...accepted].some((a) => {
    const [op, , ...others] = a.split(' | ');
    return op === operation && others.join(' | ') === rest.join(' | ');
  });
}

/** The kinds of request a refusal expected and no test of the run saw accepted, said for its message. */
const unseen = (t: TestOutcome, accepted: ReadonlySet<string> | undefined): string => {
  const kinds = (t.refusedKinds ?? []).filter((k) => !seenAccepted(k, accepted));
  return kinds.length ? ` and no call of its kind (${kinds.join('; ')}) was seen accepted in the run` : '';
};

export function blockUncontrolled(
  results: RequirementResult[],
  inScope: Requirement[],
  options: FoldOptions,
): RequirementResult[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const levels = new Map(inScope.map((r) => [r.id, r]));
  for (let changed = true, round = 0; changed && round < 20; round++) {
    changed = false;
    for (const res of results) {
      let touched = false;
      const tests = res.tests.map((t) => {
        if (!JUDGED.has(t.status) || !t.controls?.length) return t;
        if (t.refusedKinds?.length && t.refusedKinds.every((k) => seenAccepted(k, options.accepted))) return t;
        for (const id of t.controls) {
          const control = byId.get(id);
          if (!control && options.unrunControls === 'keep') continue;
          if (control && CONTROL_HELD.has(control.verdict)) continue;
          touched = true;
          const deferred =
            options.deferUnseen && t.refusedKinds?.length ? { deferred: { status: t.status, message: t.message } } : {};
          // A control not judged here (not claimed, or not applicable: a bank that answers the list by
          // a download link has no entry to detail) leaves the refusal not judged either: no verdict
          // either way, since the bank was never seen accepting the valid request nor refusing it.
          if (control?.verdict === 'skipped')
            return {
              ...t,
              ...deferred,
              status: 'skipped' as const,
              message: `not judged: its positive control ${id} was not judged here (${control.tests[0]?.message || 'skipped'}), so the bank was not seen accepting the same request made valid`,
            };
          const verdict = control?.verdict ?? 'not run';
          const root = control?.verdict === 'blocked' && control.blockedBy?.length ? control.blockedBy[0] : id;
          return {
            ...t,
            ...deferred,
            status: 'blocked' as const,
            blockedBy: root,
            message: `[blocked by ${root}] its positive control ${id} did not pass here (${verdict}${control ? '' : ': run its area too'})${unseen(t, options.accepted)}: the bank was not seen accepting the same request made valid, so its refusal proves nothing${t.status === 'passed' ? '' : ` (what the refusal check saw: ${t.message})`}`,
          };
        }
        return t;
      });
      if (!touched) continue;
      changed = true;
      const again = toResult(levels.get(res.id)!, tests);
      Object.assign(res, again);
      if (again.verdict !== 'blocked') delete res.blockedBy;
    }
  }
  return results;
}
