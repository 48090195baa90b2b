import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { startSandbox, type RunningSandbox } from './sandbox.js';
import { startServer, type LocalServer } from './servers.js';

/**
 * A bank laid out as another vendor's, for `init`: the reference sandbox behind a front that
 * serves its consents, accounts and payments under /berlingroup/v1/, its OAuth2 endpoints under
 * /auth/realms/bank/protocol/openid-connect/ (published in its RFC 8414 metadata,
 * /.well-known/oauth-authorization-server), refuses an API call without a Date
 * header ("Date header is required"), and answers 404 with an HTML page everywhere else: the
 * specification's own paths, the directory, signing baskets and direct debit among them.
 */
export interface MovedBank {
  baseUrl: string;
  sandbox: RunningSandbox;
  /** Every request the front served: "METHOD path status". */
  seen: string[];
  close(): Promise<void>;
}

const API = '/berlingroup/v1';
const REALM = '/auth/realms/bank';
const OIDC = `${REALM}/protocol/openid-connect`;
/** The front's paths and the sandbox's, longest first. */
const MOVED: [string, string][] = [
  [`${API}/consents`, '/psd2/consent/v1/consents'],
  [`${API}/accounts`, '/psd2/accountinformation/v1/accounts'],
  [`${API}/payments`, '/psd2/paymentinitiation/v1/payments'],
  [`${API}/bulk-payments`, '/psd2/paymentinitiation/v1/bulk-payments'],
  [`${API}/periodic-payments`, '/psd2/paymentinitiation/v1/periodic-payments'],
  [`${OIDC}/token`, '/connect/token'],
  [`${OIDC}/auth`, '/connect/authorize'],
];

const inward = (url: string) => {
  for (const [theirs, ours] of MOVED)
    if (url.startsWith(theirs) && /^(?:[/?]|$)/.test(url.slice(theirs.length))) return ours + url.slice(theirs.length);
  return undefined;
};
/** The sandbox's answers in the front's paths, its short links (/v1/...) included. */
const outward = (text: string) =>
  MOVED.reduce((t, [theirs, ours]) => t.split(ours).join(theirs), text)
    .split('"/v1/')
    .join(`"${API}/`);

const notFound = (res: ServerResponse) => {
  res.writeHead(404, { 'Content-Type': 'text/html' });
  res.end('<html><body><h1>404 Not Found</h1></body></html>');
};

/** The front of one sandbox: moved paths, metadata, the Date rule, 404 elsewhere. */
function front(sandbox: RunningSandbox, seen: string[], self: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    res.on('finish', () => seen.push(`${req.method} ${url.split('?')[0]} ${res.statusCode}`));
    // RFC 8414: the issuer is the front's origin, its metadata at the root; the endpoints are elsewhere.
    if (url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: self(),
          token_endpoint: `${self()}${OIDC}/token`,
          authorization_endpoint: `${self()}${OIDC}/auth`,
          grant_types_supported: ['client_credentials', 'authorization_code'],
        }),
      );
      return;
    }
    const path = inward(url);
    if (!path) {
      req.resume();
      notFound(res);
      return;
    }
    if (url.startsWith(API) && !req.headers.date) {
      req.resume();
      res.writeHead(400, {
        'Content-Type': 'application/json',
        'X-Request-ID': String(req.headers['x-request-id'] ?? ''),
      });
      res.end(
        JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'Date header is required' }] }),
      );
      return;
    }
    forward(sandbox, req, res, path, self());
  };
}

function forward(sandbox: RunningSandbox, req: IncomingMessage, res: ServerResponse, path: string, self: string) {
  // The sandbox's absolute links name its own origin: the front's, seen from outside.
  const out = (text: string) => outward(text.split(sandbox.baseUrl).join(self));
  const target = new URL(sandbox.baseUrl);
  const up = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path,
      headers: { ...req.headers, host: target.host },
    },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const headers = { ...answer.headers };
        delete headers['content-length'];
        if (headers.location) headers.location = out(String(headers.location));
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(out(Buffer.concat(chunks).toString('utf8')));
      });
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
}

/** The moved bank on a free loopback port, over a fresh sandbox. */
export async function startMovedBank(): Promise<MovedBank> {
  const sandbox = await startSandbox();
  const seen: string[] = [];
  let self = '';
  const server = await startServer(front(sandbox, seen, () => self));
  self = server.baseUrl;
  return {
    baseUrl: server.baseUrl,
    sandbox,
    seen,
    close: async () => {
      await server.close();
      await sandbox.close();
    },
  };
}

/** A bank that answers 404 with an HTML page on every path, metadata and token endpoint included. */
export const startNowhereBank = (): Promise<LocalServer> =>
  startServer((req, res) => {
    req.resume();
    notFound(res);
  });
