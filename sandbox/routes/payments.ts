import { today } from '../../spec/iso8601.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isIso13616Iban } from '../../spec/iso13616.js';
import { BgError, formatError } from '../errors.js';
import { assertPsuIpAddress, assertRedirectUri, approachOf } from '../payments/headers.js';
import {
  CANCEL_NEEDS_AUTHORISATION,
  CORPORATE_SIGNERS,
  NOT_CANCELLABLE,
  PRODUCTS,
  SERVICES,
  requestSchema,
} from '../payments/rules.js';
import type { Payment, PaymentProduct, PaymentService } from '../payments/store.js';
import { requestHeader } from '../plugins/guard.js';
import { psuOf } from './consents.js';
import { registerAuthorisationRoutes } from './sca.js';

const BASE = '/psd2/paymentinitiation/v1';
const SHORT = '/v1';
const config = { api: true, bicFi: true, scope: 'paymentinitiation' as const };
const RESOURCE = `${BASE}/:paymentService/:paymentProduct/:paymentId`;

interface Params {
  paymentService: string;
  paymentProduct: string;
  paymentId?: string;
}

/** The service and product of the path; unknown ones are refused (endpoint section D). */
function serviceAndProduct(req: FastifyRequest): { service: PaymentService; product: PaymentProduct } {
  const { paymentService, paymentProduct } = req.params as Params;
  if (!SERVICES.includes(paymentService as PaymentService)) {
    throw new BgError(
      404,
      'RESOURCE_UNKNOWN',
      `payment-service "${paymentService.slice(0, 40)}" is not one of ${SERVICES.join(', ')}`,
      'payment-service',
    );
  }
  if (!PRODUCTS.includes(paymentProduct as PaymentProduct)) {
    throw new BgError(
      404,
      'PRODUCT_UNKNOWN',
      `payment-product "${paymentProduct.slice(0, 40)}" is not offered (${PRODUCTS.join(', ')})`,
      'payment-product',
    );
  }
  return { service: paymentService as PaymentService, product: paymentProduct as PaymentProduct };
}

/** Every IBAN of a body passes the ISO 13616 mod-97 check. */
function assertIbans(value: unknown, path = ''): void {
  if (Array.isArray(value)) value.forEach((v, i) => assertIbans(v, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${k}` : k;
      if (k === 'iban' && typeof v === 'string' && !isIso13616Iban(v))
        throw formatError(`${p}: "${v}" fails the IBAN check digits`, p);
      else assertIbans(v, p);
    }
  }
}

const paymentLinks = (p: Payment) => {
  const self = `${SHORT}/${p.service}/${p.product}/${p.paymentId}`;
  return { self: { href: self }, status: { href: `${self}/status` } };
};

/** The payment of the path, of this TPP and of the path's service and product; any other is refused 403 RESOURCE_UNKNOWN. */
function loadPayment(app: FastifyInstance, req: FastifyRequest): Payment {
  const { service, product } = serviceAndProduct(req);
  const id = (req.params as Params).paymentId!;
  const p = app.sandbox.payments.payments.get(id);
  if (!p || p.clientId !== req.token?.clientId || p.service !== service || p.product !== product) {
    throw new BgError(
      403,
      'RESOURCE_UNKNOWN',
      `no ${service} ${product} payment ${id.slice(0, 60)} for this TPP`,
      'paymentId',
    );
  }
  return p;
}

/** The rules of an initiation beside the path: its headers, then its body (schema, IBANs, dates). */
function assertInitiation(
  app: FastifyInstance,
  req: FastifyRequest,
  service: PaymentService,
  product: PaymentProduct,
): Record<string, unknown> {
  assertPsuIpAddress(req);
  assertRedirectUri(req);
  if (product === 'international-tp' && !requestHeader(req, 'FX-Quote-Id')) {
    throw formatError('header FX-Quote-Id is required for international-tp payments', 'FX-Quote-Id');
  }
  // The body's schema depends on the path: checked here, after the path and the headers.
  app.sandbox.schemas.check(requestSchema(service, product), req.body);
  const body = req.body as Record<string, unknown>;
  assertIbans(body);
  for (const field of ['requestedExecutionDate', 'startDate'] as const) {
    const date = body[field];
    if (typeof date === 'string' && date < today())
      throw new BgError(400, 'EXECUTION_DATE_INVALID', `${field} ${date} is in the past`, field);
  }
  if (typeof body.endDate === 'string' && typeof body.startDate === 'string' && body.endDate < body.startDate) {
    throw formatError(`endDate ${body.endDate} is before startDate ${body.startDate}`, 'endDate');
  }
  return body;
}

/**
 * The links of a new payment: startAuthorisation where each signer starts an authorisation
 * (multilevel SCA, or the TPP asks for an explicit start), else the scaStatus of the authorisation
 * created with it.
 */
function initiationLinks(app: FastifyInstance, req: FastifyRequest, p: Payment): Record<string, { href: string }> {
  const links: Record<string, { href: string }> = paymentLinks(p);
  const explicit = p.signers > 1 || requestHeader(req, 'TPP-Explicit-Authorisation-Preferred') === 'true';
  if (explicit) {
    // Multilevel SCA: no scaRedirect or scaOAuth; every signer starts an authorisation.
    links.startAuthorisation = { href: `${links.self.href}/authorisations` };
  } else {
    const auth = app.sandbox.sca.create({
      type: 'payment',
      id: p.paymentId,
      clientId: p.clientId,
      psuId: p.psuId,
      context: p.context,
    });
    links.scaStatus = { href: `${links.self.href}/authorisations/${auth.authorisationId}` };
  }
  return links;
}

/** POST <service>/<product>: initiate a payment (201, Location, ASPSP-SCA-Approach). */
async function initiatePayment(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const { service, product } = serviceAndProduct(req);
  const body = assertInitiation(app, req, service, product);
  const psu = psuOf(req);
  const p: Payment = {
    paymentId: randomUUID(),
    service,
    product,
    clientId: req.token!.clientId,
    ...psu,
    body,
    status: 'RCVD',
    signers: psu.context === 'corporate' && psu.corporateId ? CORPORATE_SIGNERS : 1,
    createdAt: Date.now(),
  };
  app.sandbox.payments.payments.set(p.paymentId, p);
  const links = initiationLinks(app, req, p);
  reply
    .status(201)
    .header('Location', `${BASE}/${service}/${product}/${p.paymentId}`)
    .header('ASPSP-SCA-Approach', approachOf(req));
  return { transactionStatus: p.status, paymentId: p.paymentId, _links: links };
}

/**
 * DELETE the payment: CANC at once, answered 200 with transactionStatus and links (section D:
 * "response: transactionStatus and links"; Berlin Group's empty 204 is the variant
 * payments.cancel-no-content), or a cancellation to authorise (202) for the products that need one.
 */
async function cancelPayment(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const p = loadPayment(app, req);
  if (NOT_CANCELLABLE.has(p.status)) {
    throw new BgError(
      405,
      'CANCELLATION_INVALID',
      `the payment is ${p.status}: past the time limit for a cancellation`,
    );
  }
  if (!CANCEL_NEEDS_AUTHORISATION.has(p.product)) {
    p.status = 'CANC';
    reply.status(200);
    return { transactionStatus: p.status, _links: paymentLinks(p) };
  }
  if (p.cancellation?.status !== 'RCVD') p.cancellation = { status: 'RCVD' };
  const links = paymentLinks(p);
  reply.status(202);
  return {
    transactionStatus: p.status,
    _links: { ...links, startAuthorisation: { href: `${links.self.href}/cancellation-authorisations` } },
  };
}

/** The authorisations of a payment and of its cancellation (section D), on the SCA routes of sca.ts. */
function registerPaymentAuthorisations(app: FastifyInstance): void {
  const svc = app.sandbox.payments;
  const signer = (req: FastifyRequest, p: Payment) => requestHeader(req, 'PSU-ID') || p.psuId;
  registerAuthorisationRoutes(app, {
    base: RESOURCE,
    sub: 'authorisations',
    scope: 'paymentinitiation',
    listKey: 'authorisationIds',
    names: { resource: 'payment', ResourceType: 'Payment' },
    load: (req) => {
      const p = loadPayment(app, req);
      // Rejected, cancelled or already authorised: nothing left to authorise (reference-facts: repeated operations).
      if (req.method === 'POST' && !svc.awaitingSca(p))
        throw new BgError(409, 'STATUS_INVALID', `the payment is ${p.status}: it cannot be authorised`);
      return { type: 'payment', id: p.paymentId, clientId: p.clientId, psuId: signer(req, p), context: p.context };
    },
  });
  registerAuthorisationRoutes(app, {
    base: RESOURCE,
    sub: 'cancellation-authorisations',
    scope: 'paymentinitiation',
    listKey: 'cancellationIds',
    names: { resource: 'payment', ResourceType: 'Payment' },
    load: (req) => {
      const p = loadPayment(app, req);
      if (!p.cancellation)
        throw new BgError(
          409,
          'STATUS_INVALID',
          'no cancellation of this payment was requested (DELETE the payment first)',
        );
      // Cancelled, rejected or executed, or the cancellation's SCA ended: nothing left to authorise
      // (reference-facts: "an SCA already finalised"; a failed one is asked for again by DELETE).
      if (req.method === 'POST' && (NOT_CANCELLABLE.has(p.status) || p.cancellation.status !== 'RCVD'))
        throw new BgError(
          409,
          'STATUS_INVALID',
          `the payment is ${p.status} and its cancellation ${p.cancellation.status === 'RCVD' ? 'awaits its authorisation' : 'ended'}: it cannot be authorised again`,
        );
      return { type: 'cancellation', id: p.paymentId, clientId: p.clientId, psuId: signer(req, p), context: p.context };
    },
  });
}

/** Payment initiation (endpoint section D): initiate, read, status, cancel, and the (cancellation) authorisations. */
export default async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.sandbox.payments;
  app.sandbox.sca.onEnd('payment', (auth) =>
    svc.paymentScaEnded(auth.resource.id, auth.status === 'failed' ? 'failed' : 'finalised'),
  );
  app.sandbox.sca.onEnd('cancellation', (auth) =>
    svc.cancellationScaEnded(auth.resource.id, auth.status === 'failed' ? 'failed' : 'finalised'),
  );
  app.post(`${BASE}/:paymentService/:paymentProduct`, { config }, (req, reply) => initiatePayment(app, req, reply));
  app.get(RESOURCE, { config }, async (req) => {
    const p = loadPayment(app, req);
    return { ...p.body, transactionStatus: p.status };
  });
  app.get(`${RESOURCE}/status`, { config }, async (req) => ({ transactionStatus: loadPayment(app, req).status }));
  app.delete(RESOURCE, { config }, (req, reply) => cancelPayment(app, req, reply));
  registerPaymentAuthorisations(app);
}
