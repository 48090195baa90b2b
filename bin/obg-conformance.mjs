#!/usr/bin/env node
// @ts-check
// obg-conformance: the one command of the suite. `run` judges a target, `sandbox` starts the
// reference bank, `init` drafts a profile and .env from a bank, `certify`, `verify`, `merge` and
// `catalogue` work on runs. Reports, .env, profiles and baselines are read from and written to
// the working folder; the suite's own files stay in the package.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { settingsHelp } from '../harness/config/settings-text.mjs';
import { environment, handedDown } from '../harness/config/user-settings.mjs';

const PKG_DIR = resolve(dirname(realpathSync(fileURLToPath(import.meta.url))), '..');
const PKG = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));

/** Exit codes of every command. */
export const EXIT = { conformant: 0, notConformant: 1, config: 2, unavailable: 3 };

const EXIT_HELP = `Exit codes:
  0  conformant (or the command did what it was asked)
  1  not conformant (a MUST failed, a check is broken, blocked or untested; a baseline regression)
  2  configuration error (a setting, a profile or an option; the message names it)
  3  target unavailable (the early probe found no usable API at TARGET_BASE_URL)`;

// The settings each command reads, made from their schema (harness/config/settings.schema.json).
const TARGET_KEYS = `${settingsHelp('run')}
The full list with comments: .env.example in the package (obg-conformance init writes a .env).`;

const COMMANDS = {
  run: {
    summary: 'run the suite against the target and write the reports (the main job)',
    help: `Usage: obg-conformance run [--allure] [--playwright-list] [--write-baseline[=<file>]] [--seed <s>] [--generated <depth>] [-- <Playwright options>]

Runs the conformance suite against TARGET_BASE_URL (or the embedded reference sandbox), writes
reports/conformance.md, conformance.json, junit.xml, specification.html and the Allure results
(allure-results/) under REPORTS_DIR in the working folder, and exits with the verdict. While it
runs it prints a progress line; at its end the verdict, the report's counts, each failed MUST in
one line and each root cause with the number of checks it blocks.

Options:
  --allure                   also build the Allure HTML report: allure-report/ (served) and the
                             single file allure-report.html (or later: obg-conformance report)
  --playwright-list          print Playwright's list of every test (failures with their code
                             frames) before the suite's last lines (OBG_CONSOLE=playwright-list)
  --write-baseline[=<file>]  write the run's failures and warnings as a baseline to review
                             (default <reports>/baseline.yaml)
  --seed <s>                 the generated phase's seed: replays the cases and shrinks of the run
                             that printed it (OBG_GENERATED_SEED; default a new one per run)
  --generated <depth>        the generated phase's depth: default, nightly, off, or a number of
                             cases per property (OBG_GENERATED; see docs/generated.md)
  -h, --help                 this help
  -- <options>               passed to Playwright, e.g. --project=consents (one area; a whole
                             run of that area), --grep @consents.create.response, --workers=4,
                             --shard=1/3 (then: obg-conformance merge), --list

${TARGET_KEYS}

${EXIT_HELP}`,
  },
  report: {
    summary: "build the Allure HTML report from the last run's Allure results",
    help: `Usage: obg-conformance report [folder]

Builds allure-report/ (served) and the single file allure-report.html (opens from disk) from
the Allure results of the run in <folder> (default: the last run, under REPORTS_DIR, else
reports); a run builds them itself with --allure or ALLURE_HTML=on. Built again from the same
run, the report adds it to its history once. Exit 0 when built, 2 when there are no results or
the build failed.`,
  },
  sandbox: {
    summary: 'start the reference sandbox (a mock bank) and print how to point the suite at it',
    help: `Usage: obg-conformance sandbox

Starts the reference sandbox and prints its settings and a command that, pasted as it is in
another terminal, runs the suite against it (the signing and test PKI files named in it).

${settingsHelp('sandbox')}

${EXIT_HELP}`,
  },
  init: {
    summary: 'draft a profile and .env from what the bank answers (paths, OAuth2, areas, SCA)',
    help: `Usage: obg-conformance init [options]

Asks for (or reads from the options) the bank's URL and how the TPP authenticates, then asks the
bank: where it serves OAuth2 (RFC 8414 or OpenID metadata, else the usual paths), which areas
answer under which paths (the OpenAPI file's, the specification's, /v1, /psd2/v1, /berlingroup/v1,
/bg/v1...), which payment products, and with --probe-consent what one consent offers. Writes .env
(mode 600), profiles/<name>.json (marked "draft": true) claiming only what answered, and
profiles/<name>.notes.md listing what was not found (not claimed) with the profile keys that claim
it. A call refused naming a header proposes requiredHeaders. Exit 3 when no path answered.

Options:
  --base-url=<url>         TARGET_BASE_URL
  --auth-url=<url>         TARGET_AUTH_URL (default: read from the bank's metadata, else the base URL)
  --auth=<how>             client-credentials (CLIENT_ID, CLIENT_SECRET), token (a pre-issued
                           ACCESS_TOKEN; no token endpoint tried), mtls (TLS client certificate
                           and CLIENT_ID, no secret: RFC 8705) or none (no credentials; the default
                           with --yes and none given): a bank that answers without Authorization
                           is drafted with authentication "none" (no token sent)
  --client-id=<id>         CLIENT_ID
  --client-secret=<secret> CLIENT_SECRET
  --access-token=<token>   ACCESS_TOKEN (with --auth=token)
  --tls-client-cert=<pem>, --tls-client-key=<pem>   TLS_CLIENT_CERT_FILE, TLS_CLIENT_KEY_FILE
  --ca-file=<pem>          TARGET_CA_FILE (a private CA)
  --redirect-uri=<uri>     REDIRECT_URI (whitelisted for the application)
  --bicfi=<bic>            BICFI (the X-BicFi of the bank)
  --psu-id=<id>            PSU_ID
  --psu-corporate-id=<id>  PSU_CORPORATE_ID (the draft claims multilevel SCA only with it)
  --second-client-id=<id>, --second-client-secret=<secret>   a second application
  --signing-cert=<pem>, --signing-key=<pem>   the QSealC and its key (the draft claims
                           "signing" only with them)
  --test-pki-dir=<dir>     a test PKI in the sandbox's layout (signing.test-certificates)
  --openapi=<file or url>  the bank's OpenAPI file: paths (each asked of the bank), services, products
  --name=<name>            the profile's name (default: bank; writes profiles/<name>.json)
  --probe-consent          create one consent to read its SCA methods, approaches, accounts and
                           authorise page (which chooses sca.psuAgent), then delete it
  --no-probe-consent       create none (the default with --yes)
  --force                  rewrite an existing .env or profile, keeping every .env key init has
                           no value for (an ACCESS_TOKEN already there, keys of your own)
  --yes                    ask nothing: what no option gives is left to its default
  -h, --help               this help

${EXIT_HELP}`,
  },
  certify: {
    summary: 'run the whole suite and build a signed certification package when it qualifies',
    help: `Usage: obg-conformance certify [--last | --reports=<dir>] [--out=<dir>]

Runs the whole suite (or takes the last run's reports) and builds the signed certification
package only when the run qualifies: a whole run, verdict conformant, nothing untested, blocked
or broken.

Options:
  --last            certify the last run under REPORTS_DIR instead of running again
  --reports=<dir>   certify the run in this folder
  --out=<dir>       where the package goes (default <reports>/certification)

${settingsHelp('certify')}
  and every setting of \`obg-conformance run --help\`

${EXIT_HELP}`,
  },
  verify: {
    summary: 'check a certification package against its manifest and signature',
    help: `Usage: obg-conformance verify <package.tar.gz or folder> [--trust=<public key or certificate PEM>]

Checks every file of the package against its manifest and the manifest's signature, and prints
target, profile, date, suite version and verdict. Exit 0 when it holds, 1 when not, 2 on usage.`,
  },
  merge: {
    summary: 'join the reports of shards (run -- --shard=i/n) into one verdict',
    help: `Usage: obg-conformance merge <shard reports folder>... [--out=<dir>]

Joins the shards' conformance.json, junit and Allure results into one run (default out:
REPORTS_DIR, else reports). Exit codes as for run.

${EXIT_HELP}`,
  },
  catalogue: {
    summary: 'print the requirement catalogue per area (MUST / SHOULD / MAY, sentences judged)',
    help: `Usage: obg-conformance catalogue [--write-docs]

Prints the requirement catalogue per area as a Markdown table, with the specification's
normative sentences each area judges.

Options:
  --write-docs   also write the table into the suite's docs/areas.md, between its markers`,
  },
};

function mainHelp() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return `obg-conformance ${PKG.version}: conformance suite for the Open Banking Gateway API

Usage: obg-conformance <command> [options]     (obg-conformance <command> --help for more)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

Quick start: obg-conformance run          (judges the embedded reference sandbox)
             obg-conformance init         (then obg-conformance run: judges your bank)

${EXIT_HELP}`;
}

/**
 * Playwright neither collects nor compiles TypeScript under node_modules: an installed package
 * runs from a copy of its files outside node_modules (in the system's temporary folder, one per
 * installed version and place), whose node_modules links to the packages the installation
 * resolves. A checkout runs in place.
 */
export function suiteRoot(pkgDir = PKG_DIR) {
  if (!pkgDir.split(sep).includes('node_modules')) return pkgDir;
  const stamp = `${pkgDir}\n${statSync(join(pkgDir, 'package.json')).mtimeMs}\n${PKG.version}`;
  const key = createHash('sha256').update(stamp).digest('hex').slice(0, 12);
  const stage = join(tmpdir(), `obg-conformance-${PKG.version}-${key}`);
  if (existsSync(join(stage, '.staged'))) return stage;
  const work = `${stage}.${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  cpSync(pkgDir, work, {
    recursive: true,
    filter: (src) => !relative(pkgDir, src).split(sep).includes('node_modules'),
  });
  // The node_modules folders Node resolves from the package, outermost first (inner ones win).
  const folders = [];
  for (let d = pkgDir; ; d = dirname(d)) {
    if (!d.endsWith(`${sep}node_modules`)) folders.unshift(join(d, 'node_modules'));
    if (dirname(d) === d) break;
  }
  /**
   * @param {string} from
   * @param {string} to
   */
  const link = (from, to) => {
    rmSync(to, { recursive: true, force: true });
    symlinkSync(from, to, 'junction');
  };
  mkdirSync(join(work, 'node_modules'));
  for (const folder of folders.filter((f) => existsSync(f))) {
    for (const name of readdirSync(folder)) {
      if (name.startsWith('.')) continue;
      const from = join(folder, name);
      if (name.startsWith('@')) {
        mkdirSync(join(work, 'node_modules', name), { recursive: true });
        for (const inner of readdirSync(from)) link(join(from, inner), join(work, 'node_modules', name, inner));
      } else link(from, join(work, 'node_modules', name));
    }
  }
  writeFileSync(join(work, '.staged'), stamp);
  try {
    renameSync(work, stage);
  } catch {
    // Another run staged the same version at the same time: use its copy.
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(join(stage, '.staged'))) throw new Error(`could not stage the suite under ${stage}`);
  }
  return stage;
}

/**
 * @param {string} message
 * @param {string} [hint]
 * @returns {never}
 */
function fail(message, hint) {
  console.error(`obg-conformance: ${message}`);
  if (hint) console.error(`hint: ${hint}`);
  process.exit(EXIT.config);
}

/**
 * Runs a file of the suite with Node (TypeScript through tsx), in the working folder; exits with
 * its status. The child is handed the settings resolved here (the environment over the working
 * folder's .env, the schema's defaults applied), and every process it starts inherits them: none
 * reads a .env of its own folder (a staged package's, the configuration's).
 */
/**
 * @param {string} root
 * @param {string} file
 * @param {string[]} args
 * @param {{ ts?: boolean, env?: NodeJS.ProcessEnv }} [options]
 */
function runScript(root, file, args, { ts = false, env = handedDown() } = {}) {
  const req = createRequire(join(root, 'package.json'));
  const loader = ts ? ['--import', pathToFileURL(req.resolve('tsx')).href] : [];
  const child = spawn(process.execPath, [...loader, join(root, file), ...args], { stdio: 'inherit', env });
  // A stop asked of the command (Ctrl-C, a pipeline's cancel) is the child's too.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
    process.on(signal, () => child.kill(signal));
  child.on('error', (err) => fail(`could not start ${file}: ${err.message}`));
  child.on('exit', (code) => process.exit(code ?? 1));
}

const argv = process.argv.slice(2);
const command = argv[0];
const rest = argv.slice(1);
if (!command || command === '-h' || command === '--help' || command === 'help') {
  console.log(mainHelp());
  process.exit(0);
}
if (command === '-v' || command === '--version') {
  console.log(PKG.version);
  process.exit(0);
}
/** @type {{ summary: string, help: string } | undefined} */
const known = COMMANDS[/** @type {keyof typeof COMMANDS} */ (command)];
if (!known) fail(`unknown command "${command}"`, `one of ${Object.keys(COMMANDS).join(', ')}; obg-conformance --help`);
// --help before a lone "--" is the command's; after it, it is Playwright's.
const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
if (own.includes('-h') || own.includes('--help')) {
  console.log(known.help);
  process.exit(0);
}

const root = suiteRoot();
switch (command) {
  case 'run':
    runScript(
      root,
      'scripts/conformance.mjs',
      rest.filter((a, i) => !(a === '--' && i === rest.indexOf('--'))),
    );
    break;
  case 'report':
    if (own.length > 1 || own.some((a) => a.startsWith('-')))
      fail(`report takes at most one folder (${own.join(' ')})`, 'obg-conformance report --help');
    runScript(root, 'scripts/allure-html.mjs', own);
    break;
  case 'sandbox':
    if (own.length) fail(`sandbox takes no arguments (${own.join(' ')})`, 'obg-conformance sandbox --help');
    runScript(root, 'scripts/sandbox.ts', [], { ts: true });
    break;
  case 'init':
    // init drafts the working folder's .env itself: it reads the one there as it stands.
    runScript(root, 'scripts/init.ts', rest, { ts: true, env: environment() });
    break;
  case 'certify':
    runScript(root, 'scripts/certify.ts', rest, { ts: true });
    break;
  case 'verify':
    runScript(root, 'scripts/verify.ts', rest, { ts: true });
    break;
  case 'merge':
    runScript(root, 'scripts/merge.ts', rest, { ts: true });
    break;
  case 'catalogue':
    runScript(root, 'scripts/catalogue.mjs', rest);
    break;
}
