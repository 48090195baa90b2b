import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BgError, formatError } from '../errors.js';
import { assertPsuIpAddress, assertRedirectUri, approachOf } from '../payments/headers.js';
import { CORPORATE_SIGNERS } from '../payments/rules.js';
import type { Basket } from '../payments/store.js';
import { requestHeader } from '../plugins/guard.js';
import { schemaRef } from '../plugins/validation.js';
import { psuOf } from './consents.js';
import { registerAuthorisationRoutes } from './sca.js';

const BASE = '/psd2/paymentinitiation/v1/signing-baskets';
const SHORT = '/v1/signing-baskets';
const config = { api: true, bicFi: true, scope: 'paymentinitiation' as const };
const CREATE = { body: schemaRef('signing-baskets/basket-request') };

/** POST signing-baskets: distinct payments of this TPP, none yet authorised; the basket's SCA is started explicitly. */
const createBasket = (app: FastifyInstance) => async (req: FastifyRequest, reply: FastifyReply) => {
  const svc = app.sandbox.payments;
  const { paymentIds } = req.body as { paymentIds: string[] };
  if (new Set(paymentIds).size !== paymentIds.length)
    throw formatError('paymentIds holds the same payment twice', 'paymentIds');
  paymentIds.forEach((id, i) => {
    const p = svc.payments.get(id);
    if (!p || p.clientId !== req.token!.clientId)
      throw new BgError(400, 'RESOURCE_UNKNOWN', `no payment ${id.slice(0, 60)} of this TPP`, `paymentIds[${i}]`);
    if (!svc.awaitingSca(p) || app.sandbox.sca.of('payment', id).some((a) => a.status === 'finalised')) {
      throw new BgError(
        409,
        'REFERENCE_STATUS_INVALID',
        `payment ${id} is ${p.status}: only payments not yet authorised go into a basket`,
        `paymentIds[${i}]`,
      );
    }
  });
  const psu = psuOf(req);
  const b: Basket = {
    basketId: randomUUID(),
    clientId: req.token!.clientId,
    ...psu,
    paymentIds: [...paymentIds],
    status: 'RCVD',
    signers: psu.context === 'corporate' && psu.corporateId ? CORPORATE_SIGNERS : 1,
    createdAt: Date.now(),
  };
  svc.baskets.set(b.basketId, b);
  const self = `${SHORT}/${b.basketId}`;
  reply.status(201).header('Location', `${BASE}/${b.basketId}`).header('ASPSP-SCA-Approach', approachOf(req));
  // Authorisation of a basket is always started explicitly (States > Payment, basket and cancellation).
  return {
    basketId: b.basketId,
    transactionStatus: b.status,
    _links: {
      self: { href: self },
      status: { href: `${self}/status` },
      startAuthorisation: { href: `${self}/authorisations` },
    },
  };
};

/** Signing baskets (endpoint section E): several payments authorised with one SCA. */
export default async function signingBasketRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.sandbox.payments;
  app.sandbox.sca.onEnd('basket', (auth) =>
    svc.basketScaEnded(auth.resource.id, auth.status === 'failed' ? 'failed' : 'finalised'),
  );

  const load = (req: FastifyRequest): Basket => {
    const id = (req.params as { basketId: string }).basketId;
    const b = svc.baskets.get(id);
    if (!b || b.clientId !== req.token?.clientId)
      throw new BgError(403, 'RESOURCE_UNKNOWN', `no signing basket ${id.slice(0, 60)} for this TPP`, 'basketId');
    return b;
  };

  // The headers are checked before the body.
  const headers = async (req: FastifyRequest) => {
    assertPsuIpAddress(req);
    assertRedirectUri(req);
  };

  app.post(BASE, { config, schema: CREATE, preValidation: headers }, createBasket(app));

  app.get(`${BASE}/:basketId`, { config }, async (req) => {
    const b = load(req);
    return { paymentIds: b.paymentIds, transactionStatus: b.status };
  });

  app.get(`${BASE}/:basketId/status`, { config }, async (req) => ({ transactionStatus: load(req).status }));

  app.delete(`${BASE}/:basketId`, { config }, async (req, reply) => {
    const b = load(req);
    if (!svc.basketDeletable(b)) {
      throw new BgError(
        409,
        'STATUS_INVALID',
        'the basket has been (partially) authorised: it can no longer be deleted',
      );
    }
    // The payments in it are not affected.
    svc.baskets.delete(b.basketId);
    return reply.status(204).send();
  });

  registerAuthorisationRoutes(app, {
    base: `${BASE}/:basketId`,
    sub: 'authorisations',
    scope: 'paymentinitiation',
    listKey: 'authorisationIds',
    names: { resource: 'basket', ResourceType: 'Basket' },
    load: (req) => {
      const b = load(req);
      // Rejected, cancelled or already authorised: nothing left to authorise (reference-facts: repeated operations).
      if (req.method === 'POST' && b.status !== 'RCVD' && b.status !== 'PATC')
        throw new BgError(409, 'STATUS_INVALID', `the basket is ${b.status}: it cannot be authorised`);
      return {
        type: 'basket',
        id: b.basketId,
        clientId: b.clientId,
        psuId: requestHeader(req, 'PSU-ID') || b.psuId,
        context: b.context,
      };
    },
  });
}
