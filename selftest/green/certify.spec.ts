import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import * as tar from 'tar';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import {
  ALLURE_HTML,
  listFiles,
  MANIFEST,
  PUBLIC_KEY,
  SIGNATURE,
  SPECIFICATION_MAP,
  verifyPackage,
} from '../../harness/reporter/package.js';
import { noChromium, test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { greenRound } from './green-run.js';

/**
 * The certification package of the green run (green.setup.ts): `npm run certify` refuses a
 * non-conformant run (a narrowed one: selftest/cli/baseline.spec.ts, on its last run) and builds a package of
 * the conformant green run;
 * `npm run verify` passes it, and fails it after any one file is edited, removed or added, and
 * under a foreign trusted key. No secret of the run is in the package, and its Allure report
 * opens from disk in Chromium and shows the tests.
 */
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(900_000);
  await greenRound(1);
});

const green = runDir('green-1');
const work = runDir('certify');
const keys = join(work, 'keys');
const out = join(work, 'package');

interface ScriptRun {
  code: number;
  out: string;
}

/** Runs scripts/<name>.ts as `npm run <name>` does, with only the environment it needs. */
async function script(name: 'certify' | 'verify', args: string[]): Promise<ScriptRun> {
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', fromRoot('scripts', `${name}.ts`), ...args],
      {
        cwd: fromRoot(),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          CERTIFY_SIGNING_KEY_FILE: join(keys, 'certifier.pem'),
        },
        timeout: 180_000,
        maxBuffer: 10_000_000,
      },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message };
  }
}

const packages = () => (existsSync(out) ? readdirSync(out).filter((n) => n.endsWith('.tar.gz')) : []);
const thePackage = () => join(out, packages()[0]);

/** A copy of the unpacked package with one change made to its files (verify takes a folder as well as a file). */
function tampered(name: string, change: (dir: string) => void): string {
  const dir = join(work, `tampered-${name}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(work, 'unpacked'), dir, { recursive: true });
  change(dir);
  return dir;
}

test.beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(keys, { recursive: true });
  const pem = (k: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
    k.export({ type, format: 'pem' });
  const mine = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(keys, 'certifier.pem'), pem(mine.privateKey, 'pkcs8'));
  writeFileSync(join(keys, 'certifier.pub.pem'), pem(mine.publicKey, 'spki'));
  const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(keys, 'foreign.pub.pem'), pem(foreign.publicKey, 'spki'));
});

test('certify refuses a grep on its command line and builds nothing', async () => {
  const r = await script('certify', ['--grep', '@directory', `--out=${out}`]);
  expect(r.code, r.out).toBe(1);
  expect(r.out).toContain('certify: refused: --grep @directory: certification runs the whole suite');
  expect(packages()).toEqual([]);
});

test('certify refuses a non-conformant run (a hand-made copy of the green run with one MUST failed)', async () => {
  const dir = join(work, 'not-conformant');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of ['conformance.json', 'conformance.md', 'junit.xml']) cpSync(join(green, f), join(dir, f));
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const must = report.requirements.find((q) => q.level === 'MUST' && q.verdict === 'passed')!;
  must.verdict = 'failed';
  report.verdict = 'not-conformant';
  report.totals.passed--;
  report.totals.failed++;
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(report));
  const r = await script('certify', [`--reports=${dir}`, `--out=${out}`]);
  expect(r.code, r.out).toBe(1);
  expect(r.out).toContain('certify: refused: the verdict is not-conformant, not conformant');
  expect(r.out).toContain('certify: refused: 1 requirement(s) failed');
  expect(packages()).toEqual([]);
});

test('certify builds one signed package of the conformant green run, named after target, profile and date', async () => {
  test.setTimeout(240_000);
  const report = JSON.parse(readFileSync(join(green, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.verdict, 'the green run is conformant').toBe('conformant');
  const r = await script('certify', [`--reports=${green}`, `--out=${out}`]);
  expect(r.code, r.out).toBe(0);
  expect(packages()).toEqual([
    expect.stringMatching(
      new RegExp(`^certification_127\\.0\\.0\\.1-\\d+_reference_${report.finishedAt.slice(0, 10)}\\.tar\\.gz$`),
    ),
  ]);
  const dir = join(work, 'unpacked');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await tar.extract({ file: thePackage(), cwd: dir });
  const files = listFiles(dir);
  for (const f of [
    'conformance.json',
    'conformance.md',
    ALLURE_HTML,
    SPECIFICATION_MAP,
    'junit.xml',
    'profile/reference.json',
    'suite.json',
    'evidence/index.json',
    MANIFEST,
    SIGNATURE,
    PUBLIC_KEY,
  ])
    expect(files, `${f} is in the package`).toContain(f);
  const index = JSON.parse(readFileSync(join(dir, 'evidence', 'index.json'), 'utf8')) as { exchanges: string[] }[];
  const exchanges = index.reduce((n, e) => n + e.exchanges.length, 0);
  expect(exchanges, 'every exchange the run recorded is evidence').toBe(report.run?.exchanges);
  expect(JSON.parse(readFileSync(join(dir, 'suite.json'), 'utf8'))).toEqual(report.suite);
  // The map's test links lead into the package's single-file Allure report, not to a folder it lacks.
  const map = readFileSync(join(dir, SPECIFICATION_MAP), 'utf8');
  expect(
    map.match(new RegExp(`href="${ALLURE_HTML}#/[0-9a-f]+"`, 'g'))?.length ?? 0,
    'test links into the report',
  ).toBeGreaterThan(100);
  expect(map, 'no link to an Allure report folder').not.toContain('allure-report/index.html');
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { files: { path: string }[] };
  expect(manifest.files.map((f) => f.path).sort()).toEqual(files.filter((f) => f !== MANIFEST && f !== SIGNATURE));
});

test('verify passes the package and prints target, profile, date, suite version and verdict', async () => {
  const r = await script('verify', [thePackage()]);
  expect(r.code, r.out).toBe(0);
  for (const line of [
    /^target: +http:\/\/127\.0\.0\.1:\d+/m,
    // The profile's one name: its file from the working folder (a checkout), or the suite's own by name.
    /^profile: +(reference|profiles\/reference\.json)$/m,
    /^date: +\d{4}-\d{2}-\d{2}/m,
    /^suite: +obg-conformance \d+\.\d+\.\d+/m,
    /^verdict: +conformant$/m,
  ])
    expect(r.out).toMatch(line);
  // The command's other outcomes differ only in what verifyPackage finds (its problems, printed
  // one per line after "verify: FAILED: "): the rest are judged on verifyPackage itself, which
  // spares a process start for each.
  const trusted = await verifyPackage(thePackage(), join(keys, 'certifier.pub.pem'));
  expect(trusted.problems).toEqual([]);
  expect(trusted.ok).toBe(true);
});

/** What `npm run verify` would print after "verify: FAILED: ", one entry a line. */
const problemsOf = async (pkg: string, trust?: string) => {
  const v = await verifyPackage(pkg, trust);
  expect(v.ok, `verify passes ${pkg}`).toBe(false);
  return v.problems.join('\n');
};

test('verify fails a package with one file edited, one removed or one added, naming it', async () => {
  const edited = tampered('edited', (d) => appendFileSync(join(d, 'conformance.md'), '\nAll good.\n'));
  const e = await script('verify', [edited]);
  expect(e.code, e.out).toBe(1);
  expect(e.out).toContain('verify: FAILED: conformance.md: changed');

  const removed = tampered('removed', (d) => rmSync(join(d, 'junit.xml')));
  expect(await problemsOf(removed)).toContain('junit.xml: removed');

  // Packed again, as a package file travels (verify reads a package file's entries in memory).
  const added = tampered('added', (d) => writeFileSync(join(d, 'evidence', 'extra.txt'), 'a late exchange'));
  const addedPackage = `${added}.tar.gz`;
  await tar.create({ gzip: true, file: addedPackage, cwd: added, portable: true }, listFiles(added));
  expect(await problemsOf(addedPackage)).toContain('evidence/extra.txt: added');

  // Editing the manifest to match an edited file breaks the signature.
  const forged = tampered('forged', (d) => {
    const m = JSON.parse(readFileSync(join(d, MANIFEST), 'utf8')) as { verdict: string };
    m.verdict = 'conformant ';
    writeFileSync(join(d, MANIFEST), JSON.stringify(m, null, 2));
  });
  expect(await problemsOf(forged)).toContain(`${MANIFEST} is not the manifest that was signed`);
});

test('verify fails a package under a foreign trusted key', async () => {
  expect(await problemsOf(thePackage(), join(keys, 'foreign.pub.pem'))).toContain(
    'the manifest is not signed by the trusted key',
  );
});

test('no secret of the green run is in the unpacked package, the data embedded in the Allure HTML included', () => {
  const secretsFile = join(runDir('green'), 'secrets-1.json');
  expect(existsSync(secretsFile), 'the green setup wrote the secrets of its sandbox').toBe(true);
  const secrets = JSON.parse(readFileSync(secretsFile, 'utf8')) as string[];
  expect(secrets.length, 'the client secret, the tokens issued and the PSU ids').toBeGreaterThan(3);
  const dir = join(work, 'unpacked');
  const leaks: string[] = [];
  let embedded = 0;
  for (const f of listFiles(dir)) {
    const texts = [readFileSync(join(dir, f), 'latin1')];
    // The single-file report embeds its data files base64-encoded: decode every long base64 literal.
    if (f.endsWith('.html'))
      for (const m of texts[0].matchAll(/"([A-Za-z0-9+/]{24,}={0,2})"/g)) {
        texts.push(Buffer.from(m[1], 'base64').toString('latin1'));
        embedded++;
      }
    for (const t of texts) for (const s of secrets) if (t.includes(s)) leaks.push(`${f}: ${s.slice(0, 6)}…`);
  }
  expect(embedded, 'the Allure HTML embeds its data').toBeGreaterThan(100);
  expect([...new Set(leaks)]).toEqual([]);
});

test('the Allure report of the package opens from disk in Chromium and shows the tests', async ({
  chromiumBrowser,
}) => {
  test.setTimeout(200_000);
  const missing = noChromium();
  if (missing) {
    expect(process.env.CI, missing).not.toBe('true');
    test.skip(true, `${missing}; under CI=true this fails`);
  }
  const results = readdirSync(join(green, 'allure-results')).filter((n) => n.endsWith('-result.json')).length;
  const page = await chromiumBrowser!.newPage();
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The single-file report holds every result inline; on a loaded machine its first parse has
    // once outlasted a minute while a reopening rendered in seconds: open it again, bounded.
    await expect(async () => {
      await page.goto(`file://${join(work, 'unpacked', ALLURE_HTML)}`);
      await expect(page.getByTestId('metadata-item-total').getByTestId('metadata-value')).toHaveText(String(results), {
        timeout: 45_000,
      });
    }).toPass({ timeout: 140_000 });
    const areas = await page.getByTestId('tree-section-title').allInnerTexts();
    expect(areas.join(' ')).toContain('payments');
    expect(areas.join(' ')).toContain('directory');
    // A test link of the package's specification map opens that test in the single-file report.
    const map = readFileSync(join(work, 'unpacked', SPECIFICATION_MAP), 'utf8');
    const [, id, name] = /data-allure="([0-9a-f]+)">([^<]+)</.exec(map) ?? [];
    expect(id, 'the map links a test').toBeTruthy();
    await page.goto(`file://${join(work, 'unpacked', ALLURE_HTML)}#/${id}`);
    await expect(
      page
        .getByText(
          name
            .replace(/&amp;/g, '&')
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'"),
        )
        .first(),
    ).toBeVisible({ timeout: 30_000 });
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
});
