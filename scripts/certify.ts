// `npm run certify`: runs the whole suite (or, with --last or --reports=<dir>, takes a run's
// reports) and builds the signed certification package, only when the run qualifies: a whole run,
// a valid profile, verdict conformant, nothing untested, blocked or broken. Otherwise it says
// which condition failed and builds nothing.
//
//   CERTIFY_SIGNING_KEY_FILE=key.pem npm run certify [-- --last | --reports=<dir>] [--out=<dir>]
//
// CERTIFY_SIGNING_CERT_FILE (optional): the key's certificate, carried in the package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fromRoot } from '../harness/config/paths.js';
import type { ConformanceReport } from '../harness/reporter/report.js';
import { buildPackage, disqualifications } from '../harness/reporter/package.js';
import { packageFile, reportsDirOf } from '../harness/config/run-options.mjs';
import { ENV } from '../harness/config/env-names.mjs';
import { handedDown, loadSettings } from '../harness/config/user-settings.mjs';

const say = (line: string) => console.log(`certify: ${line}`);
const refuse = (lines: string[]): never => {
  for (const l of lines) console.error(`certify: refused: ${l}`);
  console.error('certify: no package was built.');
  process.exit(1);
};

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const known = (a: string) => a === '--last' || /^--(reports|out)=./.test(a);
const unknown = args.filter((a) => !known(a));
if (unknown.length)
  refuse([
    `${unknown.join(' ')}: certification runs the whole suite, so it takes no grep, file, --project or shard ` +
      '(options: --last, --reports=<dir>, --out=<dir>)',
  ]);

// The certifier's key and certificate: the environment, else .env (harness/config/user-settings.mjs).
const settings = loadSettings();
const keyFile = settings.CERTIFY_SIGNING_KEY_FILE;
if (!keyFile || !existsSync(keyFile)) {
  console.error(
    `certify: CERTIFY_SIGNING_KEY_FILE ${keyFile ? `(${keyFile}) does not exist` : 'is not set'}: the manifest must be signed with the certifier's private key (PEM).`,
  );
  process.exit(2);
}
const certFile = settings.CERTIFY_SIGNING_CERT_FILE || undefined;
if (certFile && !existsSync(certFile)) {
  console.error(`certify: CERTIFY_SIGNING_CERT_FILE (${certFile}) does not exist.`);
  process.exit(2);
}

// Reports of the working folder (REPORTS_DIR from the environment or .env, default reports).
const reportsDir = option('reports') ? resolve(process.cwd(), option('reports')!) : reportsDirOf();
if (!option('reports') && !args.includes('--last')) {
  say('running the whole suite');
  // A certification's cases are the same each time: the pinned seed, unless one is given (OBG_GENERATED_SEED).
  const run = spawnSync(process.execPath, [fromRoot('scripts', 'conformance.mjs'), '--pin-seed'], {
    stdio: 'inherit',
    env: { ...handedDown(), REPORTS_DIR: reportsDir },
  });
  if (run.error) refuse([`the suite could not be started: ${run.error.message}`]);
}

const summaryFile = join(reportsDir, 'conformance.json');
if (!existsSync(summaryFile)) refuse([`no conformance.json under ${reportsDir}: no run to certify`]);
const report = JSON.parse(readFileSync(summaryFile, 'utf8')) as ConformanceReport;
const why = disqualifications(report);
for (const f of ['conformance.md', 'junit.xml', 'allure-results'])
  if (!existsSync(join(reportsDir, f))) why.push(`${f} is missing under ${reportsDir}`);
if (why.length) refuse(why);

// The Allure report as one self-contained HTML file, read from the run's results; the history is
// shown but this second build is not added to it.
const allureOut = mkdtempSync(join(tmpdir(), 'obg-certify-allure-'));
try {
  const allure = spawnSync(
    process.execPath,
    [
      packageFile(fromRoot(), 'allure', 'cli.js') ?? 'allure',
      'generate',
      join(reportsDir, 'allure-results'),
      '-c',
      fromRoot('allurerc.mjs'),
      '-o',
      allureOut,
    ],
    {
      cwd: fromRoot(),
      encoding: 'utf8',
      env: {
        ...handedDown(),
        REPORTS_DIR: reportsDir,
        [ENV.allureSingleFile]: '1',
        [ENV.allureAppendHistory]: '0',
        [ENV.allureOutput]: allureOut,
      },
    },
  );
  const html = join(allureOut, 'index.html');
  if (allure.status !== 0 || !existsSync(html))
    refuse([
      `the Allure report could not be built as one file: ${(allure.stderr || allure.stdout || '').slice(-2000)}`,
    ]);
  const out = resolve(process.cwd(), option('out') ?? join(reportsDir, 'certification'));
  const built = await buildPackage({ reportsDir, allureHtml: html, keyFile, certificateFile: certFile, outDir: out });
  say(`package ${built.file}`);
  say(
    `target ${built.manifest.target.baseUrl} (profile ${built.manifest.target.profile}), ${built.manifest.date}, ` +
      `${built.manifest.suite.name} ${built.manifest.suite.version}, verdict ${built.manifest.verdict}`,
  );
  say(
    `${built.manifest.files.length} files in the manifest, signed by key ${built.thumbprint} (JWK SHA-256 thumbprint)`,
  );
} finally {
  rmSync(allureOut, { recursive: true, force: true });
}
