// `obg-conformance sandbox` (npm run sandbox): the reference sandbox on its own, for the suite or
// any other tool. The SANDBOX_* settings come from the environment, else .env in the working
// folder (harness/config/user-settings.mjs), as the command that started this process resolved
// them (handed down: no .env of this folder is read then); the sandbox itself reads no file and
// knows nothing of the suite. What it prints, the command that runs the suite against it
// included, is said here. The embedded run starts it too (embedded-sandbox.ts, SANDBOX_QUIET=1).
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fromRoot } from '../harness/config/paths.js';
import { handedDown, loadSettings } from '../harness/config/user-settings.mjs';
import { SandboxSettingError, serve, type Served } from '../sandbox/server.js';
import { DIRECTORY } from '../sandbox/seed/directory.js';
import { PKI_FILES } from '../sandbox/tls/pki-files.js';

/**
 * The command that, pasted as it is, runs the suite against this sandbox under the reference
 * profile: its URLs, both applications, a bank, a PSU, and the test PKI's files for the signing
 * the reference profile claims (and for TLS and mutual TLS when they are on).
 */
export function suiteCommand(s: Served, mtls: boolean, installed: boolean): string {
  const settings: [string, string][] = [
    ['TARGET_BASE_URL', s.base],
    ['TARGET_AUTH_URL', s.base],
    ['CLIENT_ID', s.client.clientId],
    ['CLIENT_SECRET', s.client.clientSecret],
    ['SECOND_CLIENT_ID', s.second.clientId],
    ['SECOND_CLIENT_SECRET', s.second.clientSecret],
    ['REDIRECT_URI', s.client.redirectUris[0] ?? ''],
    ['BICFI', DIRECTORY.banks[0].bicFi],
    ['PSU_ID', 'psu-sandbox-0001'],
    ['PSU_CORPORATE_ID', 'corp-sandbox-0001'],
    ['TPP_SIGNING_CERT_FILE', join(s.pkiDir, PKI_FILES.tppCert)],
    ['TPP_SIGNING_KEY_FILE', join(s.pkiDir, PKI_FILES.tppKey)],
    ['TPP_TEST_PKI_DIR', s.pkiDir],
    ...(s.base.startsWith('https:') ? ([['TARGET_CA_FILE', join(s.pkiDir, PKI_FILES.ca)]] as [string, string][]) : []),
    ...(mtls
      ? ([
          ['TLS_CLIENT_CERT_FILE', join(s.pkiDir, PKI_FILES.tppCert)],
          ['TLS_CLIENT_KEY_FILE', join(s.pkiDir, PKI_FILES.tppKey)],
        ] as [string, string][])
      : []),
  ];
  const quote = (v: string) => (/^[\w@%+=:,./-]*$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  const where = installed ? 'in the folder where its reports should go' : 'in this checkout';
  return `Run the suite against it (in another terminal, ${where}):\n  ${settings.map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${installed ? 'npx obg-conformance run' : 'npm run conformance'}`;
}

/** What the command prints once the sandbox listens. */
function banner(s: Served, env: NodeJS.ProcessEnv): string {
  // Installed, the command is the package's; in a checkout, the npm script.
  const installed = existsSync(fromRoot('.staged')) || fromRoot().split(sep).includes('node_modules');
  const lines = [
    `obg-conformance reference sandbox
  base URL        ${s.base}        (TARGET_BASE_URL)
  auth URL        ${s.base}        (TARGET_AUTH_URL: ${s.base}/connect/token, ${s.base}/connect/authorize)
  client id       ${s.client.clientId}
  client secret   ${s.client.clientSecret}
  redirect URIs   ${s.client.redirectUris.join(', ')}
  second client   ${s.second.clientId} (SECOND_CLIENT_ID; its secret is SANDBOX_SECOND_CLIENT_SECRET, or the first's with "-second")
  banks (X-BicFi) ${DIRECTORY.banks
    .map((b) => b.bicFi)
    .slice(0, 6)
    .join(', ')}, …
  faults          ${s.faults.length ? s.faults.join(', ') : 'none'}
  variants        ${s.variants.length ? s.variants.join(', ') : 'none'}
  test PKI        ${s.pkiDir}        (TARGET_CA_FILE=ca.pem; TLS_CLIENT_* and TPP_SIGNING_*: tpp.pem, tpp.key)
${suiteCommand(s, env.SANDBOX_MTLS === '1', installed)}`,
  ];
  if (s.faults.length) lines.push('  (with faults on, the run is not conformant: that is what they are for)');
  if (env.SANDBOX_SIGNING === 'required')
    lines.push(
      '  (SANDBOX_SIGNING=required: use a profile with signatures.mandated true, or every unsigned call is refused)',
    );
  return lines.join('\n');
}

// The settings resolved, every value by its key (the schema's defaults applied).
const env = handedDown(loadSettings(), {});
let served: Served;
try {
  served = await serve(env);
} catch (err) {
  if (!(err instanceof SandboxSettingError)) throw err;
  console.error(`sandbox: ${err.message}`);
  process.exit(2);
}
if (env.SANDBOX_QUIET !== '1') console.log(banner(served, env));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void served.app.close().then(() => process.exit(0));
  });
}
