/**
 * An assertion that holds costs no step.
 *
 * Playwright's `expect` makes every assertion a step of the test: it builds the whole set of matchers
 * for each `expect(value)` (built-in and custom, positive, `.not`, `.resolves`, `.rejects`),
 * captures the call's stack (mapped through the test files' source maps), and sends the step's
 * start and end to the runner: 7,181 steps in an embedded run, nearly all of assertions that hold.
 * Decided here, the workers' CPU fell by about 8 % (a profile had put 14 % of it in those steps).
 *
 * `quiet(expect, custom)` gives the same `expect` with one difference: an assertion is first decided
 * without that machinery, and when it holds, that is all. When it does not hold, or when it cannot be
 * decided here, the same call is made through Playwright's `expect`, which fails it (or records it,
 * for `expect.soft`) exactly as before: same message, same step, same stack, same soft error. So
 * a failure reads the same and no assertion passes here that Playwright's would fail:
 * - the suite's own matchers (`custom`) are called as Playwright calls them, with `isNot`;
 * - a few built-in matchers are decided by the comparison Playwright's (Jest's) matcher makes, and
 *   only for the arguments it decides that way (`PLAIN`); anything else goes to Playwright.
 * `expect.poll`, `.resolves`, `.rejects`, `expect.configure` and the asymmetric matchers are
 * Playwright's, unchanged.
 */
import type { Expect } from '@playwright/test';

type MatcherResult = { pass: boolean };
type Matcher = (this: { isNot: boolean; promise: string }, received: never, ...args: never[]) => MatcherResult;
type Matchers = Record<string, Matcher>;

/** The actual value's pass, or undefined where this comparison is not exactly the built-in matcher's. */
type Plain = (received: unknown, ...args: unknown[]) => boolean | undefined;
const numbers = (r: unknown, e: unknown) => typeof r === 'number' && typeof e === 'number';

/**
 * Built-in matchers decided as Jest's matchers (bundled by Playwright) decide them: `toBe` is
 * `Object.is`; `toMatch` a string's `includes` or a fresh RegExp of the expected one (so a `g` flag's
 * lastIndex does not carry over); `toContain` a string's `indexOf` of a string, or an array's
 * `indexOf` (strict equality; not of undefined, which Jest finds in an array's holes); the comparisons on two numbers. Arity is checked by the caller.
 */
export const PLAIN: Record<string, { arity: number; pass: Plain }> = {
  toBe: { arity: 1, pass: (r, e) => Object.is(r, e) },
  toBeTruthy: { arity: 0, pass: (r) => !!r },
  toBeFalsy: { arity: 0, pass: (r) => !r },
  toBeUndefined: { arity: 0, pass: (r) => r === undefined },
  toBeDefined: { arity: 0, pass: (r) => r !== undefined },
  toBeNull: { arity: 0, pass: (r) => r === null },
  toMatch: {
    arity: 1,
    pass: (r, e) =>
      typeof r !== 'string'
        ? undefined
        : typeof e === 'string'
          ? r.includes(e)
          : e instanceof RegExp
            ? new RegExp(e).test(r)
            : undefined,
  },
  toContain: {
    arity: 1,
    pass: (r, e) =>
      typeof r === 'string'
        ? typeof e === 'string'
          ? r.includes(e)
          : undefined
        : Array.isArray(r) && e !== undefined
          ? r.indexOf(e) !== -1
          : undefined,
  },
  toBeGreaterThan: { arity: 1, pass: (r, e) => (numbers(r, e) ? (r as number) > (e as number) : undefined) },
  toBeGreaterThanOrEqual: { arity: 1, pass: (r, e) => (numbers(r, e) ? (r as number) >= (e as number) : undefined) },
  toBeLessThan: { arity: 1, pass: (r, e) => (numbers(r, e) ? (r as number) < (e as number) : undefined) },
  toBeLessThanOrEqual: { arity: 1, pass: (r, e) => (numbers(r, e) ? (r as number) <= (e as number) : undefined) },
};

/** True when the assertion `matcher` (negated with `isNot`) certainly holds; false to let Playwright judge it. */
export function holds(custom: Matchers, matcher: string, isNot: boolean, received: unknown, args: unknown[]): boolean {
  const own = Object.hasOwn(custom, matcher) ? custom[matcher] : undefined;
  if (own) {
    try {
      return own.call({ isNot, promise: '' }, received as never, ...(args as never[])).pass !== isNot;
    } catch {
      // Playwright's call throws it again, in its step.
      return false;
    }
  }
  const plain = Object.hasOwn(PLAIN, matcher) ? PLAIN[matcher] : undefined;
  if (!plain || args.length > plain.arity) return false;
  const pass = plain.pass(received, ...args);
  return pass !== undefined && pass !== isNot;
}

/** Playwright's `expect` (`full`, extended with `custom`), whose assertions that hold make no step. */
export function quiet<E extends Expect<object>>(full: E, custom: Matchers): E {
  const matchersOf = (soft: boolean) => (received: unknown, message?: unknown) => {
    const slow = (isNot: boolean) => {
      const m = (soft ? full.soft : full)(received, message as string) as unknown as Record<string, unknown>;
      return (isNot ? m.not : m) as Record<string, (...args: unknown[]) => unknown>;
    };
    const side = (isNot: boolean): object =>
      new Proxy(
        {},
        {
          get(_, name) {
            if (name === 'not') return side(!isNot);
            if (typeof name !== 'string') return undefined;
            if (!Object.hasOwn(custom, name) && !Object.hasOwn(PLAIN, name)) return slow(isNot)[name];
            return (...args: unknown[]) =>
              holds(custom, name, isNot, received, args) ? undefined : slow(isNot)[name](...args);
          },
        },
      );
    return side(false);
  };
  const loud = matchersOf(false);
  const soft = matchersOf(true);
  return new Proxy(full, {
    apply: (_target, _this, args: [unknown, unknown?]) => loud(...args),
    get: (target, name, receiver) => (name === 'soft' ? soft : Reflect.get(target, name, receiver)),
  });
}
