import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';

/** A well-behaved token endpoint, so that a hostile target is judged on its API answers, not only on its tokens. */
export function serveToken(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'POST' || !req.url?.startsWith('/connect/token')) return false;
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ access_token: 'hostile-token-0123456789', token_type: 'Bearer', expires_in: 3600 }));
  return true;
}

/** The requirements a run judged (neither not claimed nor without a test). */
export const judged = (requirements: RequirementResult[]): RequirementResult[] =>
  requirements.filter((r) => r.verdict !== 'skipped' && r.verdict !== 'untested');

/** A header check says what came back in its own terms: the header, and the answer it is missing from. */
const HEADER_SAYS = /header [\w-]+ .*(is absent|got) .*→ \d{3}/;

/** Requirements whose tests' messages do not match `pattern`: a verdict that does not say what came back. */
export function unexplained(requirements: RequirementResult[], pattern: RegExp, except: string[] = []): string[] {
  return judged(requirements)
    .filter((r) => !except.includes(r.id))
    .filter(
      (r) => !r.tests.some((t) => t.status !== 'passed' && (pattern.test(t.message) || HEADER_SAYS.test(t.message))),
    )
    .map(
      (r) =>
        `${r.id} (${r.verdict}): ${(r.tests.find((t) => t.message)?.message ?? '(no message)').split('\n').slice(0, 2).join(' ').slice(0, 240)}`,
    );
}

/**
 * A rate-limited bank that never lets up on some paths: every request whose path matches
 * `limited` is answered 429 Too Many Requests with `Retry-After: 1`, forever; the rest goes
 * through to `upstream` (a sandbox), so that the run has something else to judge.
 */
export function tooManyRequestsOn(
  upstream: string,
  limited: RegExp,
): (req: IncomingMessage, res: ServerResponse) => void {
  const up = new URL(upstream);
  return (req, res) => {
    if (limited.test(req.url ?? '')) {
      req.resume();
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      res.end(JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'TOO_MANY_REQUESTS', text: 'slow down' }] }));
      return;
    }
    const out = httpRequest(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
}
