import { answerWithoutBody, rewriteJson } from '../hooks.js';
import type { Fault } from './fault.js';

/*
 * The readings of cancel payment (payments.cancelAnswer; delete consent's are in
 * consents-answers.ts): the specification's body (section D: "response: transactionStatus and
 * links"), the reference sandbox's, and Berlin Group's empty 204. Each answer is judged as the reading it gives; an empty 2xx other
 * than 204 is neither.
 */

const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;

const faults: Fault[] = [
  {
    id: 'payments.cancel-without-body-under-status-and-links',
    description:
      'cancel payment answers 204 with no body under a profile claiming payments.cancelAnswer status-and-links (section D: "response: transactionStatus and links")',
    breaks: ['payments.cancel.response', 'payments.cancel.status-and-links'],
    claims: { payments: { cancelAnswer: 'status-and-links' } },
    install: (app) => answerWithoutBody(app, 'cancel'),
  },
  {
    id: 'payments.cancel-body-under-no-content',
    description:
      'a cancellation that needs no authorisation answers 200 with transactionStatus and links under a profile pinning payments.cancelAnswer no-content (the bank claimed the empty answer)',
    breaks: ['payments.cancel.response'],
    claims: { payments: { cancelAnswer: 'no-content' } },
    // The reference sandbox's own answer (section D's) is the fault under the no-content reading.
    install: () => undefined,
  },
  {
    id: 'payments.cancel-empty-200',
    description:
      'a cancellation that needs no authorisation answers 200 with no body under the default payments.cancelAnswer either: neither Berlin Group\'s 204 nor section D\'s "response: transactionStatus and links"',
    breaks: ['payments.cancel.status-and-links'],
    claims: { payments: { cancelAnswer: 'either' } },
    install: (app) => answerWithoutBody(app, 'cancel', 200),
  },
  {
    id: 'payments.cancel-body-without-links',
    description:
      'a cancellation that needs no authorisation answers 200 with transactionStatus only, no _links (section D: "response: transactionStatus and links")',
    breaks: ['payments.cancel.status-and-links', 'payments.cancel.complete'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'DELETE', route: PAYMENT, status: 200 },
        (b: { _links?: unknown; transactionStatus?: string }) => {
          if (b.transactionStatus === 'CANC') delete b._links;
        },
      ),
  },
];

export default faults;
