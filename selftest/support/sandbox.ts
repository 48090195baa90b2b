import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { build } from '../../sandbox/app.js';
import type { SandboxOptions } from '../../sandbox/context.js';

export interface RunningSandbox {
  app: FastifyInstance;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  close(): Promise<void>;
}

/** A fresh sandbox on a free loopback port, with fresh credentials and the given faults. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const clientId = `selftest-${randomBytes(3).toString('hex')}`;
  const clientSecret = `selftest-secret-${randomBytes(10).toString('hex')}`;
  const redirectUri = 'https://tpp.example/callback';
  const app = await build({ clients: [{ clientId, clientSecret, redirectUris: [redirectUri] }], ...options });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl: address, clientId, clientSecret, redirectUri, close: () => app.close() };
}
