import { beforeHandler } from '../hooks.js';
import type { Fault } from './fault.js';

// A fault on input outside what the specification defines, which only the generated phase's
// robustness properties of the token endpoint and the authorise query (tests/oauth/properties/)
// send: a form field sent twice, a state beyond ASCII. The hand-written checks pass each.

const faults: Fault[] = [
  {
    id: 'oauth.token-repeated-secret-server-error',
    caughtBy: 'properties',
    description:
      'the token endpoint compares client_secret as a string before checking the form: a client_secret sent twice (a list) is answered 500 (other repeated fields are refused with invalid_request)',
    breaks: ['oauth.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: /^\/connect\/token$/ }, (req) => {
        const secret = (req.body as Record<string, unknown> | undefined)?.client_secret;
        if (Array.isArray(secret)) throw new TypeError('client_secret.trim is not a function');
      }),
  },
  {
    id: 'oauth.authorise-state-beyond-ascii-server-error',
    caughtBy: 'properties',
    description:
      "the authorise page fails with 500 on a state holding a character beyond ASCII (é): the bank stores the TPP's state in an ASCII column (the hand-written checks' states are base64url)",
    breaks: ['oauth.robustness.authorise-query'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: /^\/connect\/authorize$/ }, (req) => {
        const state = (req.query as Record<string, unknown> | undefined)?.state;
        if (typeof state === 'string' && /[\u0080-\u{10ffff}]/u.test(state)) throw new Error('state: not ASCII');
      }),
  },
];

export default faults;
