import { type Fault } from './fault.js';
import { rewriteReply } from '../hooks.js';

// The common header rules broken on one operation only: the basket's SCA status read (section
// F 3 on a basket), a row of the operations table the rules judge as they judge every other.

const BASKET_SCA_STATUS =
  /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;

const faults: Fault[] = [
  {
    id: 'headers.basket-sca-status-not-labelled-json',
    description:
      "the SCA status read of a basket's authorisation answers its JSON labelled text/plain (every other answer is application/json)",
    breaks: ['headers.content-type.json'],
    install: (app) =>
      rewriteReply(app, { method: 'GET', route: BASKET_SCA_STATUS }, (_req, reply) => {
        reply.header('Content-Type', 'text/plain; charset=utf-8');
      }),
  },
];

export default faults;
