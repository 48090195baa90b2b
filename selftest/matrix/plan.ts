/** What the parent of a matrix run hands to the child Playwright: one target per fault. */
export interface MatrixPlan {
  /** Where the child writes its per-fault verdicts and test output. */
  outDir: string;
  /** `files` (under tests/) narrows a fault to the spec files that check what it breaks; absent, its areas run whole. */
  faults: {
    id: string;
    projects: string[];
    breaks: string[];
    files?: string[];
    /** The source of a `grepInvert` for its projects: checks left out (see variantsLeftOut). */
    leaveOut?: string;
    /** Its rough cost in worker seconds (the plan lists the costliest first). */
    cost: number;
    /** Most workers each of its areas may hold at once, so that other faults run beside it. */
    workers: number;
  }[];
  /** Workers of the child run (I/O bound: most of a test is waiting on the target). */
  workers: number;
  timeouts: { testMs: number; expectMs: number };
}

export const PLAN_ENV = 'MATRIX_PLAN';
/** Separates fault and area in a child project's name ("headers.scope-ignored › headers"). */
export const SEP = ' › ';
/** The request header that names the fault whose sandbox answers (lower case, as Node reads it). */
export const FAULT_HEADER = 'x-selftest-fault';
