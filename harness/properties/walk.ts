import fc from 'fast-check';
import { expect } from '@playwright/test';
import type { ApiResponse } from '../http/response.js';

/*
 * What every state walk shares: a status order read from a state table (a rank per status, the
 * final ones), the judgement of a move against it, and the step of a walk (fc.AsyncCommand) that is
 * followed by a read of the status. The payment walk (payments-walk.ts) and the consent walk
 * (consents-walk.ts) hold their own tables and steps.
 */

/** A status order: the rank of each status of the code list, and the final ones. */
export interface StatusOrder {
  /** The status field's name, for the messages (transactionStatus, consentStatus). */
  field: string;
  rank: Record<string, number>;
  final: ReadonlySet<string>;
}

/** Why `next` may not follow `last` in the order, or undefined when it may. */
export function forbiddenIn(order: StatusOrder, last: string | undefined, next: string): string | undefined {
  const { rank, final } = order;
  if (rank[next] === undefined) return `${next} is no ${order.field} of the code list`;
  if (last === undefined || last === next) return undefined;
  if (final.has(last)) return `${last} is final, and the status moved on to ${next}`;
  if (rank[next] < rank[last]) return `the status moved back from ${last} to ${next}`;
  return undefined;
}

/** A walk's model holds at least the steps so far (for the failure's message). */
export interface WalkSteps {
  steps: string[];
}

export function failWalk(m: WalkSteps, what: string): never {
  throw new Error(`after ${m.steps.join(' → ')}: ${what}`);
}

/**
 * After a step whose status follows a moment later (an SCA, a deletion: the tables say what it
 * becomes, not within what time), the status read until `settled` holds, within `timeoutMs` (the
 * profile's timeouts.scaMs); the walk's next status read then judges it. Returns whether it settled.
 */
export async function settles(
  read: () => Promise<ApiResponse>,
  settled: (res: ApiResponse) => boolean,
  timeoutMs: number,
): Promise<boolean> {
  try {
    await expect
      .poll(async () => settled(await read()), { timeout: timeoutMs, intervals: [250, 500, 1000] })
      .toBe(true);
    return true;
  } catch {
    return false;
  }
}

/** A refusal that created nothing: a 4xx whose body carries none of the ids named (as a member; a tppMessage's path may name one). */
export const refusedPlainly = (res: ApiResponse, ids: string[]) =>
  res.status >= 400 &&
  res.status < 500 &&
  !new RegExp(`"(${ids.join('|')})"\\s*:`).test(JSON.stringify(res.body ?? ''));

/** One step of a walk: allowed where `can` says the model allows it; the status is read after it. */
export class WalkStep<M extends WalkSteps, R> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly name: string,
    private readonly can: (m: M) => boolean,
    private readonly act: (m: M, r: R) => Promise<void>,
    private readonly after: (m: M, r: R) => Promise<void>,
  ) {}
  check(m: Readonly<M>): boolean {
    return this.can(m as M);
  }
  async run(m: M, r: R): Promise<void> {
    m.steps.push(this.name);
    await this.act(m, r);
    // Every step is followed by a status read: every status the bank shows is judged.
    await this.after(m, r);
  }
  toString(): string {
    return this.name;
  }
}

/**
 * One resource's walk steps: `step` makes a step followed by a status read (`observe`), and
 * `status` and `read` are the two reads every walk has (of the status, and of the resource).
 */
export function walkStepsOf<M extends WalkSteps, R>(
  observe: (m: M, r: R, via: 'status' | 'read') => Promise<void>,
  resource: string,
) {
  const step = (name: string, can: (m: M) => boolean, act: (m: M, r: R) => Promise<void>) =>
    new WalkStep<M, R>(name, can, act, (m, r) => observe(m, r, 'status'));
  return {
    step,
    status: step(
      'read status',
      () => true,
      async () => {},
    ),
    read: step(
      `read ${resource}`,
      () => true,
      (m, r) => observe(m, r, 'read'),
    ),
  };
}
