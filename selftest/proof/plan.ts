import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { firstClaimed } from '../../harness/areas/payments.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { ProofEntry, ProofPlan } from '../../harness/proof.js';
import { REQUIREMENT_ANNOTATION } from '../../harness/catalogue/req.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { VARIANTS } from '../../sandbox/variants/index.js';
import { runDir } from '../support/run-dir.js';
import { suiteEnv } from '../support/run-suite.js';

/** The request header that names the case whose sandbox answers (lower case, as Node reads it). */
export const PROOF_HEADER = 'x-selftest-proof';

/**
 * One case of the self-proof, a fault or a variant of sandbox/, as the self-tests judge it: a
 * fault's `breaks` must come out failed (MUST) or warning (SHOULD) and nothing else; a variant's
 * run must stay conformant, warning at most on its `warns`.
 */
export interface ProofCase {
  id: string;
  kind: 'fault' | 'variant';
  description: string;
  breaks: string[];
  warns: string[];
  /** The requirements whose checks meet the case: a fault's breaks, a variant's concerns. */
  concerns: string[];
  /** Profile options its tests run under (the case's claims). */
  claims?: Record<string, unknown>;
}

export function proofCases(): ProofCase[] {
  return [
    ...FAULTS.map((f) => ({
      id: f.id,
      kind: 'fault' as const,
      description: f.description,
      breaks: f.breaks,
      warns: [],
      concerns: f.breaks,
      ...(f.claims ? { claims: f.claims } : {}),
    })),
    ...VARIANTS.map((v) => ({
      id: v.id,
      kind: 'variant' as const,
      description: v.description,
      breaks: [],
      warns: v.warns,
      concerns: v.concerns,
      ...(v.claims ? { claims: v.claims } : {}),
    })),
  ];
}

/** The cases SELFTEST_ONLY names (comma-separated ids), or every one. */
export function selectedCases(): ProofCase[] {
  const only = process.env.SELFTEST_ONLY?.split(',').filter(Boolean);
  return proofCases().filter((c) => !only || only.includes(c.id));
}

/** Every test of a case's areas in the long mode (SELFTEST_LONG=1); the spec files that check what it concerns otherwise. */
export const proofScope = (): 'files' | 'areas' => (process.env.SELFTEST_LONG ? 'areas' : 'files');

/** The suite's spec files (under tests/) and the requirement ids of each of their tests. */
export type Listing = Map<string, string[][]>;

/**
 * The suite as `playwright test --list` declares it (once, as written: no plan). A listing costs
 * a runner loading every spec file: it is made once per self-test run and kept in its folder
 * (the self-proof's plan and the unit tests that read the suite's declarations share it).
 */
export function listSuite(): Listing {
  // Kept only within a self-test run (an ad hoc folder would outlive edits to the suite).
  if (!process.env.SELFTEST_RUN_ID) return listSuiteNow();
  const kept = runDir('suite-listing.json');
  if (existsSync(kept))
    try {
      return new Map(JSON.parse(readFileSync(kept, 'utf8')) as [string, string[][]][]);
    } catch {
      /* being written by another worker, or cut short: list again */
    }
  const files = listSuiteNow();
  mkdirSync(dirname(kept), { recursive: true });
  const part = `${kept}.${process.pid}`;
  writeFileSync(part, JSON.stringify([...files]));
  renameSync(part, kept);
  return files;
}

function listSuiteNow(): Listing {
  const env = suiteEnv({
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'list',
    clientSecret: 'list',
    reportsDir: fromRoot('selftest', '.runs', 'list'),
  });
  const out = spawnSync(fromRoot('node_modules', '.bin', 'playwright'), ['test', '--list', '--reporter=json'], {
    cwd: fromRoot(),
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`playwright --list failed:\n${out.stderr || out.stdout}`);
  type ListSuite = {
    specs?: { file: string; tests: { annotations?: { type: string; description?: string }[] }[] }[];
    suites?: ListSuite[];
  };
  const files: Listing = new Map();
  const walk = (s: ListSuite) => {
    for (const spec of s.specs ?? []) {
      if (!files.has(spec.file)) files.set(spec.file, []);
      for (const t of spec.tests)
        files
          .get(spec.file)!
          .push((t.annotations ?? []).filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => a.description!));
    }
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of (JSON.parse(out.stdout) as { suites: ListSuite[] }).suites) walk(s);
  return files;
}

/** The areas a case reaches: those of the requirements it concerns (tests/<area>/). */
export function areasOf(c: ProofCase): string[] {
  const catalogue = loadCatalogue();
  return [...new Set(c.concerns.map((id) => catalogue.byId.get(id)?.area ?? id.split('.')[0]))];
}

/**
 * The requirements whose tests run for a case: those of the spec files that check what it
 * concerns ('files'; every file of its areas when none does), or of every file of its areas
 * ('areas', the long mode).
 */
export function runsOf(c: ProofCase, listing: Listing, scope: 'files' | 'areas'): string[] {
  const areas = areasOf(c);
  const inAreas = [...listing].filter(([file]) => areas.some((a) => file.startsWith(`${a}/`)));
  const checking = inAreas.filter(([, tests]) => tests.some((ids) => ids.some((id) => c.concerns.includes(id))));
  const files = scope === 'files' && checking.length ? checking : inAreas;
  return [...new Set(files.flatMap(([, tests]) => tests.flat()))].sort();
}

/**
 * The plan the suite's harness reads (harness/proof.ts). In the default scope a payment check
 * that names nothing a case breaks runs for the first claimed service × product only: a stray
 * failure shows there too, at a fifteenth of the cost. The long mode runs every variant.
 */
export function planOf(cases: ProofCase[], listing: Listing, scope: 'files' | 'areas'): ProofPlan {
  // The self-tests' runs send an FX quote (support/run-suite.ts): international-tp is claimed there.
  const primary = firstClaimed({ profile: loadProfile(process.env.TARGET_PROFILE || 'reference'), fxQuoteId: 'any' });
  return {
    header: PROOF_HEADER,
    representative: scope === 'areas' || !primary ? undefined : { service: primary.service, product: primary.product },
    entries: cases.map((c): ProofEntry => ({
      id: c.id,
      kind: c.kind,
      expectFailing: c.breaks,
      runs: runsOf(c, listing, scope),
      allVariants: scope === 'areas',
      ...(c.claims ? { claims: c.claims } : {}),
    })),
  };
}
