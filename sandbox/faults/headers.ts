import { randomUUID } from 'node:crypto';
import { issueToken } from '../auth/tokens.js';
import { beforeGuard, serveWithScope, beforeHandler, rewriteJson, rewriteReply, type Fault } from './fault.js';

const DIRECTORY = /^\/psd2\/aspspinformation\//;
const ANY_API = /^\/(psd2|iso)\//;

const faults: Fault[] = [
  {
    id: 'headers.request-id-not-required',
    description: 'a call without X-Request-ID is served as if it had one',
    breaks: [
      'headers.x-request-id.required',
      'headers.x-request-id.required-code',
      'headers.errors.tpp-messages',
      'headers.errors.tpp-message-category',
    ],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (!req.headers['x-request-id']) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.request-id-not-uuid-checked',
    description: 'any X-Request-ID is accepted, uuid or not',
    breaks: ['headers.x-request-id.uuid'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const id = req.headers['x-request-id'];
        if (typeof id === 'string' && id && !/^[0-9a-f-]{36}$/i.test(id)) req.headers['x-request-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.request-id-not-echoed',
    description: 'answers do not carry X-Request-ID',
    breaks: ['headers.x-request-id.echo'],
    install: (app) =>
      rewriteReply(app, { route: ANY_API, status: () => true }, (_req, reply) => {
        reply.removeHeader('X-Request-ID');
      }),
  },
  {
    id: 'headers.authorization-not-required',
    description: 'a call without Authorization is served with a token of every scope',
    breaks: [
      'headers.authorization.required',
      'headers.authorization.required-code',
      'headers.errors.tpp-messages',
      'headers.errors.tpp-message-category',
    ],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (!req.headers.authorization) {
          const t = issueToken(app, 'fault', [
            'aspspinformation',
            'accountinformation',
            'paymentinitiation',
            'private',
            'corporate',
          ]);
          req.headers.authorization = `Bearer ${t.token}`;
        }
      }),
  },
  {
    id: 'headers.unknown-token-accepted',
    description: 'a bearer token that was never issued is accepted',
    breaks: ['headers.authorization.invalid-token', 'headers.authorization.invalid-token-code'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        if (m && !app.sandbox.tokens.has(m[1])) {
          const t = issueToken(app, 'fault', [
            'aspspinformation',
            'accountinformation',
            'paymentinitiation',
            'private',
            'corporate',
          ]);
          req.headers.authorization = `Bearer ${t.token}`;
        }
      }),
  },
  {
    id: 'headers.scope-ignored',
    description: 'a token of any API scope is accepted on the directory',
    breaks: ['headers.authorization.scope'],
    install: (app) =>
      beforeGuard(app, { route: DIRECTORY }, (req) => {
        serveWithScope(app, req, 'aspspinformation');
      }),
  },
  {
    id: 'headers.error-code-renamed',
    description: 'bank detail errors name their code errorCode instead of code',
    breaks: ['headers.errors.tpp-messages', 'directory.aspsp.bicfi-format-code', 'directory.aspsp.unknown-code'],
    install: (app) =>
      rewriteJson(
        app,
        { route: /\/aspsps\/:bicFi$/, status: (s) => s >= 400 },
        (body: { tppMessages?: Record<string, unknown>[] }) => {
          for (const m of body.tppMessages ?? []) {
            m.errorCode = m.code;
            delete m.code;
          }
        },
      ),
  },
  {
    id: 'headers.error-category-information',
    description: 'error messages carry category INFORMATION',
    breaks: ['headers.errors.tpp-message-category'],
    install: (app) =>
      rewriteJson(
        app,
        { route: ANY_API, status: (s) => s >= 400 },
        (body: { tppMessages?: Record<string, unknown>[] }) => {
          for (const m of body.tppMessages ?? []) m.category = 'INFORMATION';
        },
      ),
  },
  {
    id: 'headers.field-case-variant',
    description: 'bank detail carries BicFi beside bicFi',
    breaks: ['headers.fields.case-sensitive'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: /\/aspsps\/:bicFi$/ }, (body: Record<string, unknown>) => {
        body.BicFi = body.bicFi;
      }),
  },
  {
    id: 'headers.parameter-case-insensitive',
    description: 'isocountrycodes (lower case) filters like isoCountryCodes',
    breaks: ['headers.parameters.case-sensitive'],
    install: (app) =>
      beforeHandler(app, { route: DIRECTORY }, (req) => {
        const q = req.query as Record<string, unknown>;
        for (const key of Object.keys(q))
          if (key.toLowerCase() === 'isocountrycodes' && key !== 'isoCountryCodes') q.isoCountryCodes = q[key];
      }),
  },
  {
    id: 'headers.content-type-text',
    description: 'JSON answers are labelled text/plain',
    breaks: ['headers.content-type.json'],
    install: (app) =>
      rewriteReply(app, { route: DIRECTORY, status: () => true }, (_req, reply) => {
        reply.header('content-type', 'text/plain; charset=utf-8');
      }),
  },
  {
    id: 'headers.bicfi-required-on-directory',
    description: 'Country detail demands X-BicFi',
    breaks: ['headers.x-bicfi.directory-optional'],
    install: (app) => {
      app.addHook('preHandler', async (req, reply) => {
        if (req.routeOptions.url?.endsWith('/countries/:isoCountryCode') && !req.headers['x-bicfi']) {
          await reply.status(400).send({
            tppMessages: [
              { category: 'ERROR', code: 'FORMAT_ERROR', path: 'X-BicFi', text: 'header X-BicFi is required' },
            ],
          });
        }
      });
    },
  },
  {
    id: 'headers.signing-headers-unchecked',
    description: 'Signature, Digest and TPP-Signature-Certificate are ignored (stripped before the checks)',
    breaks: ['headers.digest.with-signature', 'headers.digest.format'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        delete req.headers.signature;
        delete req.headers.digest;
        delete req.headers['tpp-signature-certificate'];
      }),
  },
  {
    id: 'headers.digest-format-unchecked',
    description: 'any Digest form is accepted when Signature is present',
    breaks: ['headers.digest.format'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (req.headers.digest && !/^SHA-256=/.test(String(req.headers.digest)))
          req.headers.digest = `SHA-256=${'A'.repeat(43)}=`;
      }),
  },
];

export default faults;
