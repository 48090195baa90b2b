import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Fault } from '../../sandbox/faults/fault.js';
import { PLAN_ENV, type MatrixPlan } from '../matrix/plan.js';
import type { FaultVerdicts } from '../matrix/reporter.js';
import { build } from '../../sandbox/app.js';
import type { TokenInfo } from '../../sandbox/context.js';
import { BoundedMap } from '../../sandbox/store.js';
import { FAULT_HEADER } from '../matrix/plan.js';
import { REQUIREMENT_ANNOTATION, tagOf, tagPattern } from '../../harness/req.js';
import { COMBINATIONS, firstClaimed, label } from '../../harness/areas/payments.js';
import { killGroup, suiteEnv } from './run-suite.js';

export interface MatrixRun {
  exitCode: number | null;
  output: string;
  durationMs: number;
  verdicts: Map<string, FaultVerdicts>;
}

export interface MatrixOptions {
  faults: Fault[];
  outDir: string;
  workers?: number;
  scaDelayMs?: number;
  timeoutMs?: number;
  /**
   * 'files' (default): a fault runs the spec files that check a requirement it breaks, so a
   * stray failure among the related checks shows; 'areas': every test of the fault's areas.
   */
  scope?: 'files' | 'areas';
}

/** The suite's tests as `playwright test --list` sees them: each spec file (under tests/) and the requirements of each of its tests. */
export interface Listing {
  /** Spec file → its tests: the title and the requirement ids each names. */
  files: Map<string, ListedTest[]>;
}

export interface ListedTest {
  title: string;
  ids: string[];
}

export function listSuite(): Listing {
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
  type ListSuite = {
    specs?: { file: string; title: string; tests: { annotations?: { type: string; description?: string }[] }[] }[];
    suites?: ListSuite[];
  };
  const files = new Map<string, ListedTest[]>();
  const walk = (s: ListSuite) => {
    for (const spec of s.specs ?? []) {
      if (!files.has(spec.file)) files.set(spec.file, []);
      for (const t of spec.tests) {
        files
          .get(spec.file)!
          .push({
            title: spec.title,
            ids: (t.annotations ?? [])
              .filter((a) => a.type === REQUIREMENT_ANNOTATION && a.description)
              .map((a) => a.description!),
          });
      }
    }
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of (JSON.parse(out.stdout) as { suites: ListSuite[] }).suites) walk(s);
  return { files };
}

/**
 * The spec files (under tests/) a fault runs: 'areas', every file of its areas; 'files', those
 * of them that check what it breaks (all of them when none does).
 */
export function filesOf(f: Fault, listing: Listing, scope: 'files' | 'areas'): string[] {
  const inAreas = [...listing.files].filter(([file]) => f.projects.some((a) => file.startsWith(`${a}/`)));
  const checking = inAreas.filter(([, tests]) => tests.some((t) => t.ids.some((id) => f.breaks.includes(id))));
  return (scope === 'files' && checking.length ? checking : inAreas).map(([file]) => file).sort();
}

/**
 * What a fault costs the workers, in rough seconds: a passing check takes about half a second
 * against the sandbox; a check the fault breaks often waits out a bound (a status that never
 * comes), so it counts as fifteen.
 */
export function faultCost(f: Fault, files: string[], listing: Listing, skip?: RegExp): number {
  let cost = 0;
  for (const file of files) {
    for (const t of listing.files.get(file) ?? []) {
      if (skip?.test(`${t.title} ${t.ids.map(tagOf).join(' ')}`)) continue;
      cost += t.ids.some((id) => f.breaks.includes(id)) ? 15 : 0.45;
    }
  }
  return cost;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The payment checks run once per service × product. Of a fault's spec files the matrix runs
 * every variant of the checks that name what the fault breaks, and the other checks for the
 * profile's first claimed combination only: a stray failure shows there as well, at a
 * fifteenth of the cost. Returns the source of a `grepInvert` (Playwright greps the file path,
 * the titles and the tags; `dir` limits it to the files under that folder), or undefined where
 * nothing is left out. The long mode runs every variant of every check.
 */
export function variantsLeftOut(f: Fault, dir?: string): string | undefined {
  const primary = firstClaimed(loadProfile(process.env.TARGET_PROFILE || 'reference'));
  const others = COMBINATIONS.filter((c) => c !== primary).map((c) => escape(label(c)));
  if (!f.projects.includes('payments') || !others.length) return undefined;
  return `^${dir ? `(?=(.*[\\s/])?${escape(dir)}/)` : ''}(?!.*\\s${tagPattern(f.breaks)})(?=(.*\\s)?(${others.join('|')}): )`;
}

/**
 * A wrapper spec file per fault and spec file: it sets the fault's header and the checks it
 * expects to fail (test-scoped options, so any worker runs any fault's tests), then imports
 * the suite's spec under a URL of the fault's own, which declares its tests afresh.
 */
function writeWrappers(plan: MatrixPlan): void {
  for (const f of plan.faults) {
    for (const file of f.files) {
      const wrapper = join(plan.specsDir, f.dir, file);
      mkdirSync(dirname(wrapper), { recursive: true });
      const to = (target: string) => relative(dirname(wrapper), target).replace(/\\/g, '/');
      writeFileSync(
        wrapper,
        [
          `// Fault ${f.id} over tests/${file} (written by the fault matrix; see selftest/support/run-matrix.ts).`,
          `import { test } from '${to(fromRoot('harness', 'test.ts'))}';`,
          `test.use(${JSON.stringify({ extraHTTPHeaders: { [FAULT_HEADER]: f.id }, expectFailing: f.breaks })});`,
          `await import('${to(fromRoot('tests', file))}?fault=${encodeURIComponent(f.id)}');`,
          '',
        ].join('\n'),
      );
    }
  }
}

/**
 * Every fault's sandbox behind one loopback port. A call names its fault in FAULT_HEADER (each
 * fault's wrapper specs set it through `extraHTTPHeaders`); a call without it (the suite's own
 * client-credentials tokens) goes to a clean sandbox. All of them share the token store, so a
 * token from either is good at every one.
 */
async function startFront(faults: Fault[], scaDelayMs: number) {
  const clientId = `selftest-${randomBytes(3).toString('hex')}`;
  const clientSecret = `selftest-secret-${randomBytes(10).toString('hex')}`;
  const clients = [{ clientId, clientSecret, redirectUris: ['https://tpp.example/callback'] }];
  const tokens = new BoundedMap<string, TokenInfo>(100_000);
  const make = async (ids: string[]) => {
    const app = await build({ clients, faults: ids, scaDelayMs });
    app.sandbox.tokens = tokens;
    await app.ready();
    return app;
  };
  const clean = await make([]);
  const apps = new Map<string, Awaited<ReturnType<typeof make>>>();
  for (const f of faults) apps.set(f.id, await make([f.id]));
  const server = createServer((req, res) => {
    const id = req.headers[FAULT_HEADER];
    ((typeof id === 'string' && apps.get(id)) || clean).routing(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await Promise.all([clean, ...apps.values()].map((a) => a.close()));
    },
  };
}

/**
 * Runs the whole fault matrix as one child Playwright run: a fresh sandbox per fault (each
 * with that one fault on, in this process, behind one port), a folder of wrapper specs per fault.
 */
export async function runMatrix(o: MatrixOptions): Promise<MatrixRun> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  const started = Date.now();
  const listing = listSuite();
  const front = await startFront(o.faults, o.scaDelayMs ?? 600);
  try {
    const profile = loadProfile(process.env.TARGET_PROFILE || 'reference');
    const specsDir = join(o.outDir, 'specs');
    // Costliest first: the folders sort in this order, so the long faults start at once and the
    // short ones fill in beside them.
    const ranked = o.faults
      .map((f) => {
        const files = filesOf(f, listing, o.scope ?? 'files');
        const leaveOut = o.scope === 'areas' ? undefined : variantsLeftOut(f);
        return {
          f,
          files,
          cost: Math.round(faultCost(f, files, listing, leaveOut ? new RegExp(leaveOut) : undefined)),
        };
      })
      .sort((a, b) => b.cost - a.cost);
    const plan: MatrixPlan = {
      outDir: o.outDir,
      specsDir,
      faults: ranked.map(({ f, files, cost }, i) => {
        const dir = `${String(i + 1).padStart(3, '0')}-${f.id}`;
        const leaveOut = o.scope === 'areas' ? undefined : variantsLeftOut(f, dir);
        return { id: f.id, dir, projects: f.projects, breaks: f.breaks, files, leaveOut, cost };
      }),
      workers: o.workers ?? 10,
      // As the suite's own config: a test may spend four request timeouts and one SCA.
      timeouts: {
        testMs: Math.max(60_000, profile.timeouts.requestMs * 4 + profile.timeouts.scaMs),
        expectMs: profile.timeouts.scaMs,
      },
    };
    writeWrappers(plan);
    const planFile = join(o.outDir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan, null, 2));
    const env = suiteEnv({
      baseUrl: front.baseUrl,
      clientId: front.clientId,
      clientSecret: front.clientSecret,
      reportsDir: o.outDir,
    });
    env[PLAN_ENV] = planFile;
    const child = spawn(
      fromRoot('node_modules', '.bin', 'playwright'),
      ['test', '-c', fromRoot('selftest', 'matrix', 'suite.config.ts')],
      {
        cwd: fromRoot(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    const orphan = () => killGroup(child.pid!);
    process.once('exit', orphan);
    let output = '';
    // The child's own output, as it comes, for a look at a long matrix while it runs.
    const log = createWriteStream(join(o.outDir, 'output.log'));
    const keep = (d: Buffer) => {
      log.write(d);
      output = (output + d.toString()).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exitCode = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => killGroup(child.pid!), o.timeoutMs ?? 1_200_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        done(code);
      });
    });
    log.end();
    process.off('exit', orphan);
    const verdicts = new Map<string, FaultVerdicts>();
    for (const f of o.faults) {
      const file = join(o.outDir, 'verdicts', `${f.id}.json`);
      if (existsSync(file)) verdicts.set(f.id, JSON.parse(readFileSync(file, 'utf8')) as FaultVerdicts);
    }
    return { exitCode, output, durationMs: Date.now() - started, verdicts };
  } finally {
    await front.close();
  }
}
