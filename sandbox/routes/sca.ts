import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiScope } from '../auth/tokens.js';
import { BgError, formatError } from '../errors.js';
import { assertPsuIpAddressFormat, assertRedirectUri } from '../payments/headers.js';
import { challengeData } from '../sca/challenge.js';
import { SCA_METHODS, TERMINAL, type Authorisation, type ScaResource } from '../sca/engine.js';

export interface AuthorisationRoutes {
  /** Route pattern of the resource, e.g. /psd2/consent/v1/consents/:consentId */
  base: string;
  sub: 'authorisations' | 'cancellation-authorisations';
  scope: ApiScope;
  listKey: 'authorisationIds' | 'cancellationIds';
  /** The resource behind the request's path; throws a BgError when unknown or not authorisable now. */
  load: (req: FastifyRequest) => ScaResource;
  /** Words for acr_values and the token headers: consent/Consent, payment/Payment, basket/Basket. */
  names: { resource: string; ResourceType: string };
}

const path = (req: FastifyRequest) => req.url.split('?')[0].replace(/\/+$/, '');
const link = (href: string) => ({ href });

function methodOf(id: string | undefined) {
  return SCA_METHODS.find((m) => m.authenticationMethodId === id);
}

const psuMessage = (auth: Authorisation): string =>
  auth.status === 'finalised'
    ? 'Authentication completed.'
    : auth.status === 'failed'
      ? 'Authentication failed.'
      : auth.methodId === 'mbid_animated_qr_image' || auth.methodId === 'mbid_animated_qr_token'
        ? 'Scan the QR code with the Mobile BankID app.'
        : auth.approach === 'DECOUPLED'
          ? 'Open the Mobile BankID app to authenticate.'
          : 'Choose an authentication method.';

/** The authorise URL of the redirect flow (endpoint section F): the PSU authenticates there. */
function scaOAuthHref(req: FastifyRequest, auth: Authorisation, names: AuthorisationRoutes['names']): string {
  const origin = `${req.protocol}://${req.headers.host}`;
  const bic = String(req.headers['x-bicfi'] ?? '');
  const q = new URLSearchParams({
    client_id: auth.resource.clientId,
    scope: `${names.resource === 'consent' ? 'accountinformation' : 'paymentinitiation'} ${auth.resource.context}`,
    response_type: 'code',
    redirect_uri: auth.redirect?.redirectUri ?? '',
    state: auth.redirect?.state ?? '',
    acr_values: `idp:${bic} ${names.resource}Id:${auth.resource.id} ${names.ResourceType}AuthorisationId:${auth.authorisationId}`,
  });
  return `${origin}/connect/authorize?${q.toString()}`;
}

/**
 * PUT an authorisation (update PSU data): without a method the decoupled answer; with one of the
 * scaMethods, the SCA starts (mbid with a redirect unless TPP-Redirect-Preferred is false).
 */
const updatePsuData =
  (app: FastifyInstance, o: AuthorisationRoutes, find: (req: FastifyRequest) => Authorisation) =>
  async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = find(req);
    assertPsuIpAddressFormat(req);
    // A body is JSON, as on every other operation: Fastify parses text/plain (a string) and may
    // parse a form (an object); either is refused, as a JSON value that is no object is.
    if (req.body !== undefined && !/^application\/([\w.+-]*\+)?json\b/i.test(req.headers['content-type'] ?? ''))
      throw new BgError(415, 'FORMAT_ERROR', 'unsupported Content-Type');
    if (req.body !== undefined && (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)))
      throw formatError('the body must be a JSON object');
    const body = (req.body ?? {}) as { authenticationMethodId?: unknown };
    if (body.authenticationMethodId === undefined) {
      // Update PSU data without a method (operations table): the decoupled answer.
      return {
        scatransactionStatus: auth.status,
        psuMessage: psuMessage(auth),
        _links: { scaStatus: link(path(req)) },
      };
    }
    if (typeof body.authenticationMethodId !== 'string')
      throw formatError('authenticationMethodId must be a string', 'authenticationMethodId');
    const method = methodOf(body.authenticationMethodId);
    if (!method)
      throw new BgError(
        400,
        'SCA_METHOD_UNKNOWN',
        `authenticationMethodId ${body.authenticationMethodId} is not one of the scaMethods`,
        'authenticationMethodId',
      );
    if (auth.status !== 'received') {
      throw new BgError(
        409,
        'STATUS_INVALID',
        `the authorisation is ${auth.status}${TERMINAL.has(auth.status) ? ' (terminal)' : ''}; a method can be chosen only once`,
      );
    }
    const redirect = method.authenticationMethodId === 'mbid' && req.headers['tpp-redirect-preferred'] !== 'false';
    if (redirect) {
      const uri = typeof req.headers['tpp-redirect-uri'] === 'string' ? req.headers['tpp-redirect-uri'] : undefined;
      auth.redirect = {
        redirectUri: uri ?? app.sandbox.clients.get(auth.resource.clientId)?.redirectUris[0],
        state: cryptoState(),
      };
    }
    app.sandbox.sca.start(auth, method.authenticationMethodId, redirect ? 'REDIRECT' : 'DECOUPLED');
    reply.header('ASPSP-SCA-Approach', auth.approach);
    const challenge = challengeData(app.sandbox.sca, auth);
    return {
      chosenScaMethod: method,
      scaStatus: auth.status,
      ...(challenge ? { challengeData: challenge } : {}),
      psuMessage: psuMessage(auth),
      _links: { scaStatus: link(path(req)), ...(redirect ? { scaOAuth: link(scaOAuthHref(req, auth, o.names)) } : {}) },
    };
  };

/**
 * The authorisation sub-resources of any resource (endpoint sections B, D, E, F): create, list,
 * SCA status, and start / update PSU data, over one SCA engine.
 */
export function registerAuthorisationRoutes(app: FastifyInstance, o: AuthorisationRoutes): void {
  const config = { api: true, bicFi: true, scope: o.scope };
  const collection = `${o.base}/${o.sub}`;
  const one = `${collection}/:authorisationId`;

  const find = (req: FastifyRequest): Authorisation => {
    const resource = o.load(req);
    const id = (req.params as { authorisationId: string }).authorisationId;
    const auth = app.sandbox.sca.get(id);
    if (!auth || auth.resource.type !== resource.type || auth.resource.id !== resource.id) {
      throw new BgError(
        403,
        'RESOURCE_UNKNOWN',
        `no authorisation ${id} of this ${o.names.resource}`,
        'authorisationId',
      );
    }
    return auth;
  };

  app.post(collection, { config }, async (req, reply: FastifyReply) => {
    const resource = o.load(req);
    // Start authorisation carries the redirect headers and the flow guide's PSU-IP-Address (Common request headers).
    assertRedirectUri(req);
    assertPsuIpAddressFormat(req);
    const body = req.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && 'psuData' in body) {
      const psuData = body.psuData;
      if (!psuData || typeof psuData !== 'object' || Array.isArray(psuData) || Object.keys(psuData).length === 0) {
        throw formatError('psuData must be a non-empty object', 'psuData');
      }
    }
    const auth = app.sandbox.sca.create(resource);
    const self = `${path(req)}/${auth.authorisationId}`;
    reply
      .status(201)
      .header('Location', self)
      .header('ASPSP-SCA-Approach', req.headers['tpp-redirect-preferred'] === 'true' ? 'REDIRECT' : 'DECOUPLED');
    return {
      authorisationId: auth.authorisationId,
      scaStatus: auth.status,
      scaMethods: SCA_METHODS,
      psuMessage: psuMessage(auth),
      _links: { scaStatus: link(self), selectAuthenticationMethod: link(self), authoriseTransaction: link(self) },
    };
  });

  app.get(collection, { config }, async (req) => {
    const resource = o.load(req);
    return {
      [o.listKey]: app.sandbox.sca
        .of(resource.type, resource.id)
        .filter((a) => a.resource.type === resource.type)
        .map((a) => a.authorisationId),
    };
  });

  app.get(one, { config }, async (req) => {
    const auth = find(req);
    const challenge = challengeData(app.sandbox.sca, auth);
    return {
      scaStatus: auth.status,
      ...(challenge ? { challengeData: challenge } : {}),
      psuMessage: psuMessage(auth),
      _links: { scaStatus: link(path(req)) },
    };
  });

  app.put(one, { config }, updatePsuData(app, o, find));
}

const cryptoState = () => randomBytes(12).toString('base64url');
