/** What the parent of a matrix run hands to the child Playwright: one target per fault. */
export interface MatrixPlan {
  /** Where the child writes its per-fault verdicts and test output. */
  outDir: string;
  /** Where the wrapper spec files are (the child's testDir): `<dir>/<area>/<file>.spec.ts` per fault. */
  specsDir: string;
  /** Costliest first (the wrappers' folders sort in this order, so the long faults start first). */
  faults: {
    id: string;
    /** Its wrappers' folder under specsDir. */
    dir: string;
    projects: string[];
    breaks: string[];
    /** The spec files (under tests/) it runs (see filesOf). */
    files: string[];
    /** A `grepInvert` source that names its folder: its checks left out (see variantsLeftOut). */
    leaveOut?: string;
    /** Its rough cost in worker seconds. */
    cost: number;
  }[];
  /** Workers of the child run (I/O bound: most of a test is waiting on the target). */
  workers: number;
  timeouts: { testMs: number; expectMs: number };
}

export const PLAN_ENV = 'MATRIX_PLAN';
/** The request header that names the fault whose sandbox answers (lower case, as Node reads it). */
export const FAULT_HEADER = 'x-selftest-fault';
