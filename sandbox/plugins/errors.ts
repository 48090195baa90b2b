import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BgError, errorBody, HEADERS_ONLY, oauthError } from '../errors.js';
import { validationError } from './validation.js';

/** Every error leaves the sandbox as a Berlin Group answer: right status, tppMessages body. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | BgError, req, reply) => {
    let bg: BgError;
    if (err instanceof BgError) bg = err;
    else if ((err as FastifyError).validation) {
      const e = err as FastifyError;
      bg = validationError(
        e.validation![0] as ErrorObject,
        e.validationContext ?? 'request',
        req.routeOptions.config?.paramNames,
      );
    } else if ((err as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      bg = new BgError(415, 'FORMAT_ERROR', 'unsupported Content-Type');
    } else if ((err as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      bg = new BgError(413, 'FORMAT_ERROR', 'request body too large');
    } else if ((err as FastifyError).statusCode && (err as FastifyError).statusCode! < 500) {
      bg = new BgError(400, 'FORMAT_ERROR', err.message.replace(/^Body /, 'body '));
    } else {
      req.log.error(err);
      bg = new BgError(500, 'INTERNAL_ERROR', 'internal error');
    }
    // The authorisation server answers as RFC 6749 5.2 has it: a body it cannot read (malformed, in
    // another content type) is an invalid_request with an OAuth error body, not a tppMessages one.
    if (req.routeOptions.url === '/connect/token' && bg.status < 500)
      return reply.status(400).type('application/json').send(oauthError('invalid_request', bg.text));
    reply.status(bg.status);
    if (HEADERS_ONLY.has(bg.status)) return reply.send();
    return reply.type('application/json').send(errorBody(bg));
  });

  app.setNotFoundHandler((req, reply) => {
    const id = req.headers['x-request-id'];
    if (typeof id === 'string') reply.header('X-Request-ID', id);
    reply
      .status(404)
      .type('application/json')
      .send(errorBody(new BgError(404, 'RESOURCE_UNKNOWN', `no resource at ${req.method} ${req.url.split('?')[0]}`)));
  });
}

/**
 * The router's refusals (Fastify's `frameworkErrors`), which the error handler never sees: a path
 * id longer than the router keeps names no resource (404 RESOURCE_UNKNOWN), a malformed URL is a
 * format error (400), each with its tppMessages body.
 */
export function routerError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const bg =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new BgError(404, 'RESOURCE_UNKNOWN', 'no resource with that id')
      : new BgError(400, 'FORMAT_ERROR', 'malformed request URL');
  void reply.status(bg.status).type('application/json').send(errorBody(bg));
}
