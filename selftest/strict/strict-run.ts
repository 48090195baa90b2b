import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import { ensurePki, PKI_FILES } from '../../sandbox/tls/pki.js';
import { leaksUnder } from '../support/leaks.js';
import { runSuite } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';
import { startProxy } from './proxy.js';
import { sharedResult } from '../support/shared-result.js';
import { STRICT_FILE, STRICT_SLICE, type StrictResult } from './strict.js';

/**
 * The sandbox as a strict bank: HTTPS with its test PKI, mutual TLS required, every API call's
 * signature verified (SANDBOX_TLS=1 SANDBOX_MTLS=1 SANDBOX_SIGNING=required), and the suite's
 * strict slice (strict.ts: every area, every kind of call; the whole suite in the long mode) run
 * against it through a local HTTPS proxy, with a profile that says the bank mandates signing.
 *
 * Made once per self-test run: the strict-run project starts it at once; a judging test that comes
 * first, or runs without that project, makes or waits for it (sharedResult).
 */
export const strictRun = (): Promise<void> => sharedResult(STRICT_FILE(), runStrict);

async function runStrict(): Promise<void> {
  const pki = await ensurePki();
  const sandbox = await startSandbox({ tls: { mtls: true }, signing: 'required' });
  const ports: number[] = [];
  sandbox.app.server.on('request', (req: { socket: { remotePort?: number } }) =>
    ports.push(req.socket.remotePort ?? 0),
  );
  const proxy = await startProxy();
  const profile = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Record<string, unknown>;
  const profileFile = runDir('strict-input', 'strict-profile.json');
  mkdirSync(dirname(profileFile), { recursive: true });
  writeFileSync(
    profileFile,
    JSON.stringify({
      ...profile,
      name: 'strict',
      signatures: { mandated: true },
    }),
  );
  try {
    const run = await runSuite({
      name: 'strict',
      ...sandbox,
      // Two for the slice: each worker costs its start, and the run ends well within the self-proof's.
      workers: STRICT_SLICE ? 2 : 10,
      args: STRICT_SLICE ?? [],
      timeoutMs: 840_000,
      env: {
        TARGET_PROFILE: profileFile,
        TARGET_CA_FILE: pki.file('ca'),
        TLS_CLIENT_CERT_FILE: pki.file('tppCert'),
        TLS_CLIENT_KEY_FILE: pki.file('tppKey'),
        HTTPS_PROXY: proxy.url,
      },
    });
    const secrets = [PKI_FILES.tppKey, PKI_FILES.otherKey, PKI_FILES.expiredKey, PKI_FILES.aisKey, PKI_FILES.noRoleKey]
      .map((f) => readFileSync(join(pki.dir, f), 'utf8').split('\n')[1])
      .concat(sandbox.clientSecret);
    const leaks = leaksUnder(run.reportsDir, secrets);
    const result: StrictResult = {
      exitCode: run.exitCode,
      output: run.output.slice(-3000),
      durationMs: run.durationMs,
      report: run.report,
      requests: ports.length,
      notThroughProxy: ports.filter((p) => !proxy.tunnelPorts.has(p)).length,
      leaks,
    };
    mkdirSync(dirname(STRICT_FILE()), { recursive: true });
    writeFileSync(STRICT_FILE(), JSON.stringify(result));
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}
