import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * The fronts of the banks that break one thing (selftest/hostile/unfair-banks.spec.ts): each the
 * reference sandbox at `upstream` behind a handler that answers as such a bank would.
 */

/** The faults `bank` plays (any other mode, "sound" among them, passes every call on). */
export type FrontMode =
  | 'refuses-signed'
  | 'unexpected-code'
  | 'account-routes-fail'
  | 'no-sca-method'
  | 'link-missing'
  | 'ignores-bicfi'
  | 'sound';

const CONSENT_CREATE = /^\/psd2\/consent\/v1\/consents\/?(\?|$)/;
const CONSENT_AUTHORISATIONS = /^\/psd2\/consent\/v1\/consents\/[^/]+\/authorisations/;
const ACCOUNT_ROUTE = /^\/psd2\/accountinformation\/v1\/accounts\/[^/?]+\/(balances|transactions)(\/|\?|$)/;
const CONSENT_READ = /^\/psd2\/consent\/v1\/consents\/([^/]+)(?:\/status)?$/;
const CREATES_AUTHORISATION = /^\/psd2\/consent\/v1\/consents(\/[^/]+\/authorisations)?\/?$/;

const json = (res: ServerResponse, status: number, body: unknown, req: IncomingMessage) => {
  req.resume();
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'X-Request-ID': String(req.headers['x-request-id'] ?? ''),
  });
  res.end(JSON.stringify(body));
};

/** One bank: its own answer where its fault speaks, else the sandbox's (its scaMethods taken out where it offers none). */
export function bank(mode: FrontMode | string, upstream: string) {
  const up = new URL(upstream);
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const token = url.startsWith('/connect/');
    if (mode === 'refuses-signed' && !token && req.headers.signature !== undefined)
      return json(res, 401, { tppMessages: [{ category: 'ERROR', code: 'SIGNATURE_INVALID', text: 'no' }] }, req);
    if (mode === 'unexpected-code' && !token)
      return json(res, req.method === 'GET' ? 418 : 409, { tppMessages: [{ category: 'ERROR', code: 'NOPE' }] }, req);
    if (mode === 'account-routes-fail' && ACCOUNT_ROUTE.test(url))
      return json(res, 404, { tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN', text: 'no route' }] }, req);
    // A call without X-BicFi taken as if it carried the bank's own.
    if (mode === 'ignores-bicfi' && !token && req.headers['x-bicfi'] === undefined) req.headers['x-bicfi'] = 'SBXBSESS';
    const strip = mode === 'no-sca-method' && req.method === 'POST' && CREATES_AUTHORISATION.test(url.split('?')[0]);
    const unlink = mode === 'link-missing' && req.method === 'POST' && CONSENT_CREATE.test(url);
    const out = httpRequest(
      { host: up.hostname, port: up.port, method: req.method, path: url, headers: req.headers },
      (answer) => {
        if (!strip && !unlink) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          try {
            const body = JSON.parse(text) as Record<string, unknown>;
            if (strip) delete body.scaMethods;
            if (unlink) delete (body._links as Record<string, unknown> | undefined)?.scaStatus;
            text = JSON.stringify(body);
          } catch {
            /* not JSON: as it came */
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(text);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
}

/** Headers of one hop, not passed on. */
const HOP_BY_HOP = ['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'expect'];

/** Calls the sandbox as the bank itself would, with the TPP's own headers (its token among them). */
async function call(
  upstream: string,
  method: string,
  path: string,
  headers: IncomingMessage['headers'],
  json?: unknown,
) {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (typeof v === 'string' && ![...HOP_BY_HOP, 'x-request-id', 'digest', 'signature', 'content-type'].includes(k))
      h[k] = v;
  const res = await fetch(`${upstream}${path}`, {
    method,
    headers: { ...h, 'X-Request-ID': randomUUID(), 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

/**
 * A bank whose consents are valid at once: its own SCA runs as the consent is created (an
 * authorisation created and started with mbid_same_device, which ends at once here), while every
 * authorisation route of the TPP's answers 404.
 */
export function validAtOnce(upstream: string, readsReceived = 0) {
  const plain = bank('sound', upstream);
  const reads = new Map<string, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const read = CONSENT_READ.exec(url.split('?')[0]);
    // A consent that reads received on its first reads (its status or itself), valid after them.
    if (read && req.method === 'GET' && readsReceived > 0) {
      const n = (reads.get(read[1]) ?? 0) + 1;
      reads.set(read[1], n);
      if (n <= readsReceived)
        return void call(upstream, 'GET', url, req.headers).then((body) =>
          json(res, 200, 'consentStatus' in body ? { ...body, consentStatus: 'received' } : body, req),
        );
    }
    if (CONSENT_AUTHORISATIONS.test(url))
      return json(res, 404, { tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN', text: 'no route' }] }, req);
    if (req.method !== 'POST' || !CONSENT_CREATE.test(url)) return plain(req, res);
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', async () => {
      const created = await fetch(`${upstream}${url}`, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.includes(e[0]),
          ),
        ),
        body: Buffer.concat(sent),
      });
      const text = await created.text();
      const consentId = (JSON.parse(text || '{}') as { consentId?: string }).consentId;
      if (consentId) {
        const base = `/psd2/consent/v1/consents/${consentId}`;
        const auth = await call(upstream, 'POST', `${base}/authorisations`, req.headers, {});
        await call(upstream, 'PUT', `${base}/authorisations/${String(auth.authorisationId)}`, req.headers, {
          authenticationMethodId: 'mbid_same_device',
        });
      }
      res.writeHead(created.status, {
        'Content-Type': created.headers.get('content-type') ?? 'application/json',
        'X-Request-ID': String(req.headers['x-request-id'] ?? ''),
      });
      res.end(text);
    });
  };
}

/** A creation of an authorisation (of a consent or a payment; a cancellation's is left as it is). */
const AUTHORISATION_CREATE =
  /^\/psd2\/[^?]+\/(?:consents|payments|bulk-payments|periodic-payments)(?:\/[^/?]+)+\/authorisations\/?$/;

/**
 * A bank that needs no further SCA: the authorisation it creates is started at once by its own SCA
 * (which ends at once here), and the creation answers the status it then has (finalised).
 */
export function finalisedAtCreation(upstream: string) {
  const plain = bank('sound', upstream);
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !AUTHORISATION_CREATE.test(path)) return plain(req, res);
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.includes(e[0]),
        ),
      );
      const created = await fetch(`${upstream}${req.url}`, { method: 'POST', headers, body: Buffer.concat(sent) });
      const body = (await created.json().catch(() => ({}))) as Record<string, unknown>;
      if (created.ok && typeof body.authorisationId === 'string') {
        const self = `${path.replace(/\/$/, '')}/${body.authorisationId}`;
        await call(
          upstream,
          'PUT',
          self,
          { ...req.headers, 'tpp-redirect-preferred': 'false' },
          {
            authenticationMethodId: 'mbid_same_device',
          },
        );
        await new Promise((done) => setTimeout(done, 20));
        body.scaStatus = (await call(upstream, 'GET', self, req.headers)).scaStatus;
      }
      json(res, created.status, body, req);
    });
  };
}

/** An initiation of a payment (not of a basket). */
const PAYMENT_INITIATE = /^\/psd2\/paymentinitiation\/v1\/(?:payments|bulk-payments|periodic-payments)\/[^/?]+\/?$/;

/**
 * A bank that needs no SCA for a payment: it runs its own as the payment is created (the
 * authorisation created with it, started at once, which ends at once here), and answers the
 * creation with the status the payment then reads (ACCP) and no link to an authorisation.
 */
export function exemptedPayments(upstream: string) {
  const plain = bank('sound', upstream);
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !PAYMENT_INITIATE.test(path)) return plain(req, res);
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.includes(e[0]),
        ),
      );
      const created = await fetch(`${upstream}${req.url}`, { method: 'POST', headers, body: Buffer.concat(sent) });
      const body = (await created.json().catch(() => ({}))) as Record<string, unknown>;
      const links = (body._links ?? {}) as Record<string, { href?: string } | undefined>;
      // The links are the sandbox's short ones (/v1/...): the paths are made from the request's.
      const authorisationId = links.scaStatus?.href?.split('/').pop();
      const paymentId = typeof body.paymentId === 'string' ? body.paymentId : undefined;
      if (created.ok && authorisationId && paymentId) {
        const self = `${path.replace(/\/$/, '')}/${paymentId}`;
        await call(
          upstream,
          'PUT',
          `${self}/authorisations/${authorisationId}`,
          { ...req.headers, 'tpp-redirect-preferred': 'false' },
          { authenticationMethodId: 'mbid_same_device' },
        );
        for (let i = 0; i < 50 && !/^AC/.test(String(body.transactionStatus)); i++) {
          await new Promise((done) => setTimeout(done, 20));
          body.transactionStatus = (await call(upstream, 'GET', `${self}/status`, req.headers)).transactionStatus;
        }
        for (const key of Object.keys(links))
          if (/^(scaStatus|startAuthorisation|scaRedirect|scaOAuth)/.test(key)) delete links[key];
      }
      res.writeHead(created.status, {
        'Content-Type': 'application/json',
        'X-Request-ID': String(req.headers['x-request-id'] ?? ''),
        ...(created.headers.get('location') ? { Location: created.headers.get('location')! } : {}),
      });
      res.end(JSON.stringify(body));
    });
  };
}

/**
 * A bank that answers an unknown consent or payment 404 RESOURCE_UNKNOWN (as consents.unknown.code
 * and payments.read.unknown ask) and a path it does not serve an HTML 404: the reference sandbox
 * behind a front that says so.
 */
export function unknownIds(upstream: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.includes(e[0]),
        ),
      );
      const body = sent.length ? Buffer.concat(sent) : undefined;
      const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body });
      const text = await answer.text();
      const code = /"code"\s*:\s*"(\w+)"/.exec(text)?.[1];
      if (answer.status === 404 && text.includes('no resource at')) {
        res.writeHead(404, { 'Content-Type': 'text/html' });
        return res.end(`<!DOCTYPE html><pre>Cannot ${req.method} ${req.url}</pre>`);
      }
      if (
        req.method === 'GET' &&
        /\/(consents|payments|bulk-payments|periodic-payments)\//.test(req.url ?? '') &&
        [403, 404].includes(answer.status) &&
        /^(CONSENT|RESOURCE)_UNKNOWN$/.test(code ?? '')
      ) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        return res.end(
          JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN', text: 'unknown id' }] }),
        );
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
      });
      res.writeHead(answer.status, out);
      res.end(text);
    });
  };
}

/** The API scope the reference sandbox's route needs, by its path. */
const scopeOfPath = (url: string) =>
  /^\/psd2\/aspspinformation\//.test(url)
    ? 'aspspinformation'
    : /^\/psd2\/(consent|accountinformation)\//.test(url)
      ? 'accountinformation'
      : 'paymentinitiation';

/**
 * A bank that takes no authentication: it ignores Authorization entirely (the call is served
 * whatever it carries, or none) and serves no token endpoint and no OAuth2 metadata (404). The
 * reference sandbox behind a front that sends each call on with a token of its own, of the
 * route's scope, fetched with the sandbox's client credentials.
 */
export function noAuthentication(upstream: string, client: { clientId: string; clientSecret: string }) {
  const up = new URL(upstream);
  const tokens = new Map<string, { token: Promise<string>; until: number }>();
  const tokenOf = (scope: string) => {
    const kept = tokens.get(scope);
    if (kept && kept.until > Date.now()) return kept.token;
    const token = fetch(`${upstream}/connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        scope: `${scope} private`,
      }),
    }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
    // Fetched again after a minute: well within the sandbox's token lifetime.
    tokens.set(scope, { token, until: Date.now() + 60_000 });
    return token;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (url.startsWith('/connect/token') || url.startsWith('/.well-known/')) {
      req.resume();
      res.writeHead(404, { 'Content-Type': 'text/html' });
      return res.end(`<!DOCTYPE html><pre>Cannot ${req.method} ${url}</pre>`);
    }
    // The PSU's pages (the authorise page and what follows) are no API call: passed on as they are.
    const api = !url.startsWith('/connect/');
    req.pause();
    const send = (authorization?: string) => {
      const headers = { ...req.headers };
      delete headers.authorization;
      if (authorization) headers.authorization = authorization;
      const out = httpRequest(
        { host: up.hostname, port: up.port, method: req.method, path: url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
      req.resume();
    };
    if (!api) return send(req.headers.authorization);
    tokenOf(scopeOfPath(url)).then(
      (token) => send(`Bearer ${token}`),
      () => res.destroy(),
    );
  };
}
