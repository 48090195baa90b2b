import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BgError } from '../errors.js';
import { SCA_METHODS } from '../sca/engine.js';
import { type Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';

// Fault shapes several areas share: the ownership check gone or answered with the wrong code, an
// authorisation faked at once, a status link that leads nowhere, the consent service's reaction
// to the end of an SCA bent.

export type Params = Record<string, string | undefined>;
export const params = (req: FastifyRequest) => (req.params ?? {}) as Params;
/** A route path as a regular-expression source (its slashes escaped). */
export const esc = (s: string) => s.replace(/[/]/g, '\\/');

/** Serves the call as if the resource's own TPP made it (the ownership check is gone). */
export function asOwner(req: FastifyRequest, owner: string | undefined): void {
  if (owner && req.token && req.token.clientId !== owner) req.token = { ...req.token, clientId: owner };
}

/** Refuses another TPP's call with 400 FORMAT_ERROR instead of the ownership codes (still a refusal). */
export function refuseAsFormatError(req: FastifyRequest, owner: string | undefined): void {
  if (owner && req.token && req.token.clientId !== owner)
    throw new BgError(400, 'FORMAT_ERROR', 'the request cannot be served');
}

/** Answers a create authorisation at once, as if it had been accepted. */
export function fakeAuthorisation(req: FastifyRequest, reply: FastifyReply): void {
  const id = randomUUID();
  const self = `${req.url.split('?')[0]}/${id}`;
  void reply
    .status(201)
    .type('application/json')
    .send({
      authorisationId: id,
      scaStatus: 'received',
      scaMethods: SCA_METHODS,
      _links: { scaStatus: { href: self } },
    });
}

/** A create that answers a status link, an object with an href, that leads nowhere (its GET is a 404). */
export const deadStatusLink = (id: string, what: string, route: RegExp, requirement: string): Fault => ({
  id,
  description: `${what} answers a status link, an object with an href, that leads nowhere (its GET is a 404)`,
  breaks: [requirement],
  install: (app) =>
    rewriteJson(app, { method: 'POST', route }, (b: Record<string, any>) => {
      const link = b._links?.status;
      if (typeof link?.href === 'string') link.href = link.href.replace(/\/status$/, '/state');
    }),
});

export { wrapConsentEnd } from '../hooks.js';
