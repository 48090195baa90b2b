import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Consent } from '../consents/store.js';
import type { DirectDebitPayment, DirectDebitRequest } from '../direct-debit/payment.js';
import { BgError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { schemaRef } from '../plugins/validation.js';

const CREATE = '/iso/beta/payments/sepa-direct-debit';
const PAYMENTS = '/iso/payments';
const config = { api: true, bicFi: true, scope: 'paymentinitiation' as const };
const CREATE_SCHEMA = { body: schemaRef('direct-debit/payment-request') };
const CONFIRM_SCHEMA = { body: schemaRef('direct-debit/confirm-request') };

const view = (p: DirectDebitPayment) => ({ ...p.request, transactionStatus: p.transactionStatus });

/**
 * SEPA direct debit (beta, endpoint section H): create, confirm (builds, validates and "uploads"
 * a pain.008.001.02 file), get; and GET /sandbox/files/<reference> to fetch a generated file.
 */
export default async function directDebitRoutes(app: FastifyInstance): Promise<void> {
  const dd = () => app.sandbox.directDebit;
  // The token's context and the headers (and, on confirm, the consent) are checked before the body.
  const common = async (req: FastifyRequest) => {
    dd().assertCorporate(req);
    dd().assertHeaders(req);
  };
  const consents = new WeakMap<FastifyRequest, Consent | undefined>();
  const commonAndConsent = async (req: FastifyRequest) => {
    await common(req);
    const consent = dd().consentFor(req, app.sandbox.consents);
    const bad = consent && dd().consentProblem(consent);
    if (bad) throw bad;
    consents.set(req, consent);
  };

  app.post(CREATE, { config, schema: CREATE_SCHEMA, preValidation: common }, async (req, reply) => {
    const body = req.body as DirectDebitRequest;
    dd().validate(body);
    const payment: DirectDebitPayment = {
      paymentId: randomUUID(),
      clientId: req.token!.clientId,
      psuId: requestHeader(req, 'PSU-ID') || 'sandbox-psu',
      request: structuredClone(body),
      transactionStatus: 'RCVD',
      createdAt: Date.now(),
    };
    dd().payments.set(payment.paymentId, payment);
    reply.status(201).header('Location', `${PAYMENTS}/${payment.paymentId}`);
    return {
      transactionStatus: payment.transactionStatus,
      paymentId: payment.paymentId,
      _links: {
        confirmPayment: { href: `${PAYMENTS}/confirm` },
        self: { href: `${PAYMENTS}/${payment.paymentId}` },
      },
    };
  });

  app.put(`${PAYMENTS}/confirm`, { config, schema: CONFIRM_SCHEMA, preValidation: commonAndConsent }, async (req) => {
    const consent = consents.get(req);
    const { paymentIds } = req.body as { paymentIds: string[] };
    const payments = dd().confirmable(paymentIds, req.token!.clientId);
    const file = await dd().upload(payments, {
      clientId: req.token!.clientId,
      consentId: consent?.consentId ?? '',
      initiatingParty: requestHeader(req, 'PSU-Corporate-ID') ?? payments[0].request.creditorName,
    });
    return {
      tppMessages: [
        {
          category: 'INFORMATION',
          code: 'FILE_UPLOADED',
          text: `Collection file ${file.reference} (pain.008.001.02, ${file.nbOfTxs} transaction(s)) uploaded to the debtor's bank.`,
        },
      ],
    };
  });

  app.get(`${PAYMENTS}/:paymentId`, { config }, async (req) => {
    await common(req);
    const id = (req.params as { paymentId: string }).paymentId;
    const p = dd().payments.get(id);
    if (!p || p.clientId !== req.token!.clientId)
      throw new BgError(404, 'RESOURCE_UNKNOWN', `no direct debit payment ${id} for this TPP`, 'paymentId');
    return view(p);
  });

  // For sandbox users: the generated file, as uploaded (any token of the TPP that confirmed it).
  app.get('/sandbox/files/:reference', { config: { api: true } }, async (req, reply) => {
    const ref = (req.params as { reference: string }).reference;
    const file = dd().files.get(ref);
    if (!file || file.clientId !== req.token!.clientId)
      throw new BgError(404, 'RESOURCE_UNKNOWN', `no collection file ${ref} for this TPP`, 'reference');
    return reply
      .type('application/xml; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${ref}.xml"`)
      .send(file.xml);
  });
}
