import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts.js';
import consentRoutes from './consents.js';
import directDebitRoutes from './direct-debit.js';
import directoryRoutes from './directory.js';
import oauthRoutes from './oauth.js';
import paymentRoutes from './payments.js';
import signingBasketRoutes from './signing-baskets.js';

/** Route modules, one per area. Each registers its operations with `config: { api, scope, bicFi }`. */
export const ROUTES: ((app: FastifyInstance) => Promise<void>)[] = [
  oauthRoutes,
  directoryRoutes,
  consentRoutes,
  accountRoutes,
  paymentRoutes,
  signingBasketRoutes,
  directDebitRoutes,
];
