import { type Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';

// "Error and information messages use the TPP message shape" (Errors 1) kept on the 400 of a
// malformed call and broken on the errors of the flows.

type Tpp = { tppMessages?: { code?: string; text?: string }[] };

/** An error answer in a body of another shape: { error, message } (a common gateway's). */
const otherShape = (b: Tpp) => {
  const m = b.tppMessages?.[0];
  return m ? { error: m.code, message: m.text } : undefined;
};

const faults: Fault[] = [
  {
    id: 'headers.error-shape-403-405-409-429',
    description:
      'errors answered 403, 405, 409 or 429 carry { error, message } instead of tppMessages (the 400 of a malformed call keeps them)',
    breaks: ['headers.errors.tpp-messages'],
    install: (app) => rewriteJson(app, { route: /./, status: (s) => [403, 405, 409, 429].includes(s) }, otherShape),
  },
];

export default faults;
