import { beforeHandler } from '../hooks.js';
import type { Fault } from './fault.js';

// A fault on input outside what the specification defines, which only the generated phase's
// robustness property of the token endpoint (tests/oauth/properties/robustness.spec.ts) sends: a
// form field sent twice. The hand-written checks (tests/oauth/token.spec.ts) pass it.

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
];

export default faults;
