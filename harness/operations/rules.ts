import type { HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import type { Target } from '../config/target.js';
import { block, Blocked } from '../http/broken.js';
import { claimedOperations } from './claims.js';
import { GROUPS, OPERATIONS, type Operation, type OperationGroup } from './table.js';
import type { Bound, CallOptions, OperationWorld } from './world.js';
import { because, expect, req, test } from '../test.js';
import { NOT_JUDGED_ANNOTATION } from '../catalogue/req.js';

// ---------------------------------------------------------------------------------------------
// Header rules over every operation they govern
// ---------------------------------------------------------------------------------------------

export interface HeaderCase {
  /** What the case sends, e.g. 'X-BicFi "ESSESE1S"'. */
  what: string;
  call: CallOptions;
}

interface RuleOptions {
  requirement: string;
  /** The end of the test's title: "<group>: every operation <title>". */
  title: string;
  /** The operations the rule governs (default: every one). */
  applies?: (o: Operation) => boolean;
  cases: (o: Operation, target: Target) => HeaderCase[];
}

/**
 * Judges every claimed operation of a group that the rule governs, each on its own prerequisites
 * (made once per test), skipping the test when none is claimed. An operation whose prerequisites
 * could not be made (a Blocked step: the requirement that failed first) is not judged: the test
 * names it with its root cause (a `not judged` annotation) and judges the others; it is blocked,
 * by the first such root cause, only when no operation could be judged.
 */
async function eachOperation(
  operations: OperationWorld,
  target: Target,
  group: OperationGroup,
  applies: (o: Operation) => boolean,
  judge: (b: Bound) => Promise<void>,
): Promise<void> {
  const { claimed, skipped } = claimedOperations(target, group, applies);
  for (const why of skipped) test.info().annotations.push({ type: 'not claimed', description: why });
  test.skip(claimed.length === 0, skipped.join('; '));
  let first: Blocked | undefined;
  let judged = 0;
  for (const o of claimed) {
    let b: Bound;
    try {
      b = await test.step(`prerequisites of ${o.name}`, () => operations.bind(o));
    } catch (e) {
      if (!(e instanceof Blocked)) throw e;
      first ??= e;
      test.info().annotations.push({ type: NOT_JUDGED_ANNOTATION, description: `${o.name}: ${e.message}` });
      continue;
    }
    judged++;
    await judge(b);
  }
  if (!judged && first) throw first;
}

/** The groups that have an operation the rule governs. */
const groupsOf = (applies: (o: Operation) => boolean) =>
  GROUPS.filter((g) => OPERATIONS.some((o) => o.group === g && applies(o)));

/** A test to declare, from the spec file (so that it is that file's test: its location names it). */
export interface RuleTest {
  title: string;
  details: ReturnType<typeof req>;
  body: (fixtures: { operations: OperationWorld; target: Target }) => Promise<void>;
}

/**
 * One test per operation group: every claimed operation of the group that the rule governs,
 * called with each case, is refused (a 4xx carrying no data: no id of a created resource), and a
 * state-changing one leaves its resource as it was. Each failure names the operation and the
 * case; the prerequisites are made once per test. Declare them in the spec file:
 * `for (const t of refusalTests({...})) test(t.title, t.details, t.body);`
 */
export function refusalTests(
  o: RuleOptions & {
    status?: number | number[];
    /** The Berlin Group code(s) the refusal carries (judged with its status, 400 unless given). */
    code?: string | string[];
  },
): RuleTest[] {
  const applies = o.applies ?? (() => true);
  return groupsOf(applies).map((group) => ({
    title: `${group}: every operation ${o.title}`,
    details: req(o.requirement),
    body: async ({ operations, target }) => {
      await eachOperation(operations, target, group, applies, async (b) => {
        const cases = o.cases(b.op, target);
        const before = await b.state?.();
        for (const c of cases) {
          const res = await b.call(c.call);
          if (o.code) await expect.soft(res, `${b.label}: ${c.what}`).toBeTppError(o.status ?? 400, o.code);
          else await expect.soft(res, `${b.label}: ${c.what}`).toBeRefused(o.status);
        }
        if (b.state) {
          const tried = cases.map((c) => c.what).join('; ');
          expect
            .soft(await b.state(), because(`${b.label}: refused calls (${tried}) must change nothing`))
            .toBe(before);
        }
      });
    },
  }));
}

const succeeded = (res: ApiResponse) => res.status >= 200 && res.status < 300;

/**
 * The positive control of a call the rule adds something to (headers, a signature): where that
 * call is not a success, the same call made plain. Returns why the operation is not the rule's to
 * judge (the plain call fails too: the operation's own failure, judged by its control), or
 * undefined when the rule's call is judged.
 */
async function plainAlsoFails(b: Bound, res: ApiResponse): Promise<{ by: string; why: string } | undefined> {
  if (succeeded(res)) return undefined;
  const plain = await b.call();
  if (succeeded(plain)) return undefined;
  return {
    by: b.op.control,
    why: `${b.label} fails made plain too (${plain.describe()}), so its answer ${res.describe()} proves nothing of this rule`,
  };
}

/**
 * Ends a rule's test whose operations were not judged because their plain call failed too: each is
 * named not judged (its own failure, judged by its control); the test is blocked, by the first
 * one's control, only when no operation was judged (`judged`: those whose call the rule judged)
 * and nothing failed the rule itself (that failure stands).
 */
function blockIfOnlyUncontrolled(uncontrolled: { by: string; why: string }[], judged: number): void {
  for (const u of uncontrolled)
    test.info().annotations.push({ type: NOT_JUDGED_ANNOTATION, description: `[${u.by}] ${u.why}` });
  if (!uncontrolled.length || judged > 0 || test.info().errors.length > 0) return;
  block(
    uncontrolled[0].by,
    'the same call made plain (the positive control)',
    uncontrolled.map((u) => u.why).join('; '),
  );
}

/**
 * One test per operation group: every claimed operation of the group that accepts the headers,
 * called with valid values of them, succeeds (2xx). Each failure names the operation. An operation
 * that fails the same call without the headers too is not judged here (its own failure): the test
 * is blocked by that operation's control when nothing else failed.
 */
export function acceptanceTests(o: {
  requirement: string;
  title: string;
  applies: (o: Operation) => boolean;
  headers: (o: Operation, target: Target) => HeaderSpec;
}): RuleTest[] {
  return groupsOf(o.applies).map((group) => ({
    title: `${group}: every operation ${o.title}`,
    details: req(o.requirement),
    body: async ({ operations, target }) => {
      const uncontrolled: { by: string; why: string }[] = [];
      let judged = 0;
      await eachOperation(operations, target, group, o.applies, async (b) => {
        const headers = o.headers(b.op, target);
        const res = await b.call({ headers });
        const plain = await plainAlsoFails(b, res);
        if (plain) return void uncontrolled.push(plain);
        judged++;
        await expect.soft(res, `${b.label} with ${Object.keys(headers).join(', ')}`).toSucceed();
      });
      blockIfOnlyUncontrolled(uncontrolled, judged);
    },
  }));
}

/**
 * One test per operation group: every claimed operation of the group that the rule governs,
 * called once as `call` says (valid otherwise), and its answer judged by `check` (soft
 * assertions naming the operation). For rules of every answer: names, Content-Type, signed calls.
 * With `controlled` (a rule of a valid call: the call must succeed), an operation whose call is
 * not a success is judged only where the same call made plain succeeds (as acceptanceTests).
 */
export function answerTests(o: {
  requirement: string;
  title: string;
  applies?: (o: Operation) => boolean;
  call?: (o: Operation, target: Target) => CallOptions;
  check: (res: ApiResponse, b: Bound) => Promise<void>;
  controlled?: boolean;
}): RuleTest[] {
  const applies = o.applies ?? (() => true);
  return groupsOf(applies).map((group) => ({
    title: `${group}: every operation ${o.title}`,
    details: req(o.requirement),
    body: async ({ operations, target }) => {
      const uncontrolled: { by: string; why: string }[] = [];
      let judged = 0;
      await eachOperation(operations, target, group, applies, async (b) => {
        const res = await b.call(o.call?.(b.op, target));
        const plain = o.controlled ? await plainAlsoFails(b, res) : undefined;
        if (plain) return void uncontrolled.push(plain);
        judged++;
        await o.check(res, b);
      });
      blockIfOnlyUncontrolled(uncontrolled, judged);
    },
  }));
}
