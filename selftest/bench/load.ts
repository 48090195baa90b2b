import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { fromRoot } from '../../harness/config/paths.js';
import { killGroup } from '../support/run-suite.js';
import { CLIENT, CONNECTIONS, freePort, LOAD_REQUESTS, LOAD_SECONDS, round, type LoadFigures } from './common.js';

/** The reference sandbox in a process of its own, so that the load generator does not share its event loop. */
export async function sandboxProcess(): Promise<{ base: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/sandbox.ts'], {
    cwd: fromRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SANDBOX_PORT: String(port),
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_QUIET: '1',
      SANDBOX_CLIENT_ID: CLIENT.id,
      SANDBOX_CLIENT_SECRET: CLIENT.secret,
    },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => killGroup(child.pid!);
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('the sandbox process did not answer /health within 20 s');
}

export async function token(base: string, scope: string): Promise<string> {
  const res = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      scope,
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for "${scope}": HTTP ${res.status}`);
  return body.access_token;
}

/** One bounded autocannon run: LOAD_SECONDS long, at most LOAD_REQUESTS requests. */
export async function load(
  name: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<LoadFigures> {
  const instance = autocannon({
    url,
    method: opts.method ?? 'GET',
    connections: CONNECTIONS,
    // Bounded both ways: LOAD_SECONDS of load, and never more than LOAD_REQUESTS requests.
    duration: LOAD_SECONDS,
    maxOverallRequests: LOAD_REQUESTS,
    timeout: 10,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          headers: { ...opts.headers, 'X-Request-ID': randomUUID() },
          body: opts.body,
        }),
      },
    ],
  });
  const guard = setTimeout(() => instance.stop(), (LOAD_SECONDS + 5) * 1000);
  const t0 = performance.now();
  const r = await instance;
  // autocannon's own duration counts whole seconds: time the run here for a rate worth reading.
  const elapsed = (performance.now() - t0) / 1000;
  clearTimeout(guard);
  const requests = r.requests.total;
  return {
    name,
    requests,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: round(elapsed, 2),
    rps: round(requests / Math.max(0.001, elapsed)),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  };
}

export const skipped = (name: string, why: string): LoadFigures => ({
  name,
  requests: 0,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  seconds: 0,
  rps: 0,
  latencyMs: { p50: 0, p90: 0, p99: 0, max: 0 },
  skipped: why,
});

export async function loadFigures(): Promise<LoadFigures[]> {
  const sandbox = await sandboxProcess();
  try {
    const out: LoadFigures[] = [];
    const dirToken = await token(sandbox.base, 'aspspinformation private');
    // Warm up (JIT, sockets) on both routes first, so that the yardstick is not measured cold.
    await load('warm-up', `${sandbox.base}/health`, {});
    await load('warm-up', `${sandbox.base}/psd2/aspspinformation/v1/aspsps`, {
      headers: { Authorization: `Bearer ${dirToken}` },
    });
    out.push(await load('GET /health (yardstick)', `${sandbox.base}/health`, {}));
    out.push(
      await load('GET aspsps (directory read)', `${sandbox.base}/psd2/aspspinformation/v1/aspsps`, {
        headers: { Authorization: `Bearer ${dirToken}` },
      }),
    );

    const payUrl = `${sandbox.base}/psd2/paymentinitiation/v1/payments/sepa-credit-transfers`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const body = JSON.stringify({
      debtorAccount: { iban: 'SE4550000000058398257466', currency: 'EUR' },
      instructedAmount: { currency: 'EUR', amount: '12.50' },
      creditorAccount: { iban: 'DE89370400440532013000', currency: 'EUR' },
      creditorName: 'Bench Creditor',
      remittanceInformationUnstructured: 'bench',
      requestedExecutionDate: tomorrow,
    });
    let payToken: string | undefined;
    try {
      payToken = await token(sandbox.base, 'paymentinitiation private');
    } catch (err) {
      out.push(
        skipped('POST payments/sepa-credit-transfers (initiation)', `no payment token: ${(err as Error).message}`),
      );
    }
    if (payToken) {
      const headers = {
        Authorization: `Bearer ${payToken}`,
        'Content-Type': 'application/json',
        'X-BicFi': 'SBXBSESS',
        'PSU-IP-Address': '192.0.2.10',
      };
      const probe = await fetch(payUrl, {
        method: 'POST',
        headers: { ...headers, 'X-Request-ID': randomUUID() },
        body,
      });
      const text = (await probe.text()).slice(0, 200);
      if (probe.status === 404 || probe.status === 405)
        out.push(
          skipped(
            'POST payments/sepa-credit-transfers (initiation)',
            `the sandbox has no payment initiation route yet (HTTP ${probe.status})`,
          ),
        );
      else if (probe.status !== 201)
        out.push(
          skipped(
            'POST payments/sepa-credit-transfers (initiation)',
            `the probe initiation was refused: HTTP ${probe.status} ${text}`,
          ),
        );
      else
        out.push(
          await load('POST payments/sepa-credit-transfers (initiation)', payUrl, { method: 'POST', headers, body }),
        );
    }
    return out;
  } finally {
    sandbox.stop();
  }
}
