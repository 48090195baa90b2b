import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qrcode from 'qrcode-terminal';
import type { Target } from '../config/target.js';
import { registerSecret } from '../evidence/redact.js';
import { ApiResponse } from '../http/response.js';
import { fromRedirect, isRedirectUri, type AgentResult, type RedirectAgent } from './psu-agent.js';
import { ambient } from '../config/user-settings.mjs';

/** The line a person (or a program playing one) reads the authorise URL from. */
export const AUTHORISE_URL_LINE = 'PSU authorise URL: ';

/**
 * Writes to the terminal of the run, past the test runner's capture of a worker's output (which
 * the quiet reporter does not print), so that the person sees it at once. The line goes to the
 * worker's own standard error, which the runner passes through.
 */
export function tellPerson(text: string): void {
  writeSync(2, `${text}\n`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Runs `task` while holding the run's one "person" lock (a file beside the system's temporary
 * files, shared by every worker): a person plays one SCA at a time, so the tests that need one
 * run one after the other whatever the number of workers. A lock left by a dead process is taken over.
 */
export async function withPerson<T>(task: () => Promise<T>): Promise<T> {
  const lock = join(
    tmpdir(),
    `obg-conformance-psu-${ambient('TEST_PARALLEL_INDEX') === undefined ? process.pid : process.ppid}.lock`,
  );
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(lock, 'utf8'));
      } catch {
        continue;
      }
      if (holder && !alive(holder)) rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The PSU played by a real person ('manual' agent), for certification sessions with a real app:
 * the suite prints the authorise URL and listens where the bank sends the person back (a loopback
 * REDIRECT_URI, or PSU_CALLBACK_LISTEN behind the TPP's redirect page), reading code, scope and
 * state from that return, within the SCA timeout.
 */
export class ManualAgent implements RedirectAgent {
  constructor(private readonly target: Target) {}

  decide(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<AgentResult> {
    return withPerson(() => this.play(authorizeUrl, decision));
  }

  private async play(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<AgentResult> {
    const listen = this.target.psuCallback;
    if (!listen) throw new Error('PSU_CALLBACK_LISTEN: not set and REDIRECT_URI is no loopback http URI');
    const redirectUri = this.target.redirectUri;
    const timeoutMs = this.target.timeouts.scaMs;
    let server: ReturnType<typeof createServer> | undefined;
    const back = new Promise<URL>((done, fail) => {
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', redirectUri);
        if (!isRedirectUri(url.toString(), redirectUri)) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('The conformance suite has your answer; you may close this page.\n');
        done(url);
      });
      server.on('error', fail);
      server.listen(listen.port, listen.host);
    });
    const timer = setTimeout(() => server?.emit('error', new Error('timeout')), timeoutMs);
    // The person is told only once the suite listens: a quick one (a script) would find nobody home.
    const listening = new Promise<boolean>((ok) => server!.once('listening', () => ok(true)));
    const ready = await Promise.race([
      listening,
      back.then(
        () => true,
        () => false,
      ),
    ]);
    try {
      if (ready)
        tellPerson(
          `\n=== A person is needed (sca.psuAgent manual): ${decision} as the PSU within ${Math.round(timeoutMs / 1000)} s ===\n` +
            `Open this address in a browser, log in to the bank and ${decision}:\n${AUTHORISE_URL_LINE}${authorizeUrl}\n` +
            `(the suite waits for the bank's return on http://${listen.host}:${listen.port})`,
        );
      const location = await back.catch((err: Error) => {
        throw new Error(
          err.message === 'timeout'
            ? `the PSU did not come back to the redirect URI within ${timeoutMs} ms (SCA_TIMEOUT_MS)`
            : `cannot listen for the PSU's return on ${listen.host}:${listen.port}: ${err.message}`,
        );
      });
      const found = fromRedirect(location);
      registerSecret(found.code);
      tellPerson(`=== The bank sent the PSU back (${found.error ? `error ${found.error}` : 'with a code'}) ===`);
      return {
        authorizeUrl,
        page: new ApiResponse(200, {}, '', {
          seq: 0,
          method: 'GET',
          url: authorizeUrl,
          requestHeaders: {},
          durationMs: 0,
          startedAt: new Date().toISOString(),
        }),
        ...found,
        returnedBy: "the person's browser",
      };
    } finally {
      clearTimeout(timer);
      server?.closeAllConnections();
      server?.close();
    }
  }
}

/** Renders `text` as a QR code for a terminal (qrcode-terminal, small blocks). */
export function terminalQr(text: string): Promise<string> {
  return new Promise((done) => qrcode.generate(text, { small: true }, done));
}

/**
 * Shows a person a started decoupled SCA: the app link with the auto-start token as a QR code to
 * scan with the bank's app on another device, and the link itself for the same device.
 */
export async function announceDecoupled(
  target: Target,
  started: { challengeData?: { data?: unknown } },
): Promise<void> {
  const data = started.challengeData?.data;
  const token = Array.isArray(data) ? data[0] : data;
  if (typeof token !== 'string' || !token) {
    tellPerson(
      '=== A person is needed (sca.psuAgent manual): authenticate in the bank app (no auto-start token given) ===',
    );
    return;
  }
  const link = `${target.appLinkBase}/?autostarttoken=${encodeURIComponent(token)}&redirect=null`;
  tellPerson(
    `\n=== A person is needed (sca.psuAgent manual): authenticate in the bank app within ${Math.round(target.timeouts.scaMs / 1000)} s ===\n` +
      `Scan with the app on another device:\n${await terminalQr(link)}\nor open on this device: ${link}`,
  );
}
