import type { FastifyInstance } from 'fastify';

/** A registered TPP application. */
export interface Client {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export const DEFAULT_CLIENT: Client = {
  clientId: 'sandbox-tpp',
  clientSecret: 'sandbox-tpp-secret',
  redirectUris: ['https://tpp.example/callback'],
};

/**
 * The second TPP application a sandbox registers beside a lone first one, so that a TPP's calls
 * on another TPP's resources can be tried (reference-facts: Ownership). Its id and secret derive
 * from the first's, so whoever holds the first's credentials can name the second's.
 */
export const secondApplicationOf = (c: Client): Client => ({
  clientId: `${c.clientId}-second`,
  clientSecret: `${c.clientSecret}-second`,
  redirectUris: [...c.redirectUris],
});

/** The clients by id, each a copy: a sandbox never shares mutable state with another one built beside it. */
export const clientRegistry = (clients: Client[]): Map<string, Client> =>
  new Map(clients.map((c) => [c.clientId, { ...c, redirectUris: [...c.redirectUris] }]));

/** The client with this id and secret, if there is one. */
export function authenticateClient(
  app: FastifyInstance,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Client | undefined {
  const client = clientId ? app.sandbox.clients.get(clientId) : undefined;
  return client && client.clientSecret === clientSecret ? client : undefined;
}
