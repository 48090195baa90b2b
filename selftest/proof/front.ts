import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { build } from '../../sandbox/app.js';
import type { TokenInfo } from '../../sandbox/auth/tokens.js';
import { BoundedMap } from '../../sandbox/store.js';
import { PROOF_HEADER, type ProofCase } from './plan.js';

/**
 * Every case's sandbox behind one loopback port. A call names its case in PROOF_HEADER (the
 * harness sends it for the tests declared for that case); a call without it (the suite's own
 * client-credentials tokens) goes to a clean sandbox. All of them share the token store, so a
 * token from either is good at every one.
 */
export async function startFront(cases: ProofCase[], scaDelayMs: number) {
  const clientId = `selftest-${randomBytes(3).toString('hex')}`;
  const clientSecret = `selftest-secret-${randomBytes(10).toString('hex')}`;
  const clients = [{ clientId, clientSecret, redirectUris: ['https://tpp.example/callback'] }];
  const tokens = new BoundedMap<string, TokenInfo>(100_000);
  const make = async (c?: ProofCase) => {
    const app = await build({
      clients,
      scaDelayMs,
      faults: c?.kind === 'fault' ? [c.id] : [],
      variants: c?.kind === 'variant' ? [c.id] : [],
    });
    app.sandbox.tokens = tokens;
    await app.ready();
    return app;
  };
  const clean = await make();
  // A case's sandbox is built on its first call (not all of them before the run starts): the run's
  // first tests begin at once, and a case that is never called costs nothing.
  const byId = new Map(cases.map((c) => [c.id, c]));
  const apps = new Map<string, ReturnType<typeof make>>();
  const appOf = (id: unknown) => {
    const c = typeof id === 'string' ? byId.get(id) : undefined;
    if (!c) return Promise.resolve(clean);
    if (!apps.has(c.id)) apps.set(c.id, make(c));
    return apps.get(c.id)!;
  };
  const server = createServer((req, res) => {
    appOf(req.headers[PROOF_HEADER]).then(
      (app) => app.routing(req, res),
      (err: Error) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`the self-proof front could not build this case's sandbox: ${err.message}`);
      },
    );
  });
  // The client drops an idle connection after 4 s (harness/http/transport.ts); Node's server
  // default of 5 s left a race on a loaded machine (a late client reusing a socket the front had
  // just closed: "other side closed"). The front keeps idle connections longer, as Fastify does.
  server.keepAliveTimeout = 72_000;
  server.headersTimeout = 75_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      const built = await Promise.allSettled(apps.values());
      await Promise.all(
        [clean, ...built.flatMap((b) => (b.status === 'fulfilled' ? [b.value] : []))].map((a) => a.close()),
      );
    },
  };
}
