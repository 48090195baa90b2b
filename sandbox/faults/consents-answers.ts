import { answerWithoutBody } from '../hooks.js';
import type { Fault } from './fault.js';

// The readings of delete consent (consents.deleteAnswer): section B's message-and-links structure,
// the reference sandbox's, and Berlin Group's empty 204 (cancel payment's are in
// payments-answers.ts). An empty 2xx other than 204 is neither.

const faults: Fault[] = [
  {
    id: 'consents.delete-without-body-under-message-and-links',
    description:
      'delete consent answers 204 with no body under a profile claiming consents.deleteAnswer message-and-links (section B: "response uses the message-and-links structure")',
    breaks: ['consents.delete.message-and-links'],
    claims: { consents: { deleteAnswer: 'message-and-links' } },
    install: (app) => answerWithoutBody(app, 'delete-consent'),
  },
  {
    id: 'consents.delete-empty-200',
    description:
      "delete consent answers 200 with no body under the default consents.deleteAnswer either: neither Berlin Group's 204 nor section B's message-and-links structure",
    breaks: ['consents.delete.message-and-links'],
    claims: { consents: { deleteAnswer: 'either' } },
    install: (app) => answerWithoutBody(app, 'delete-consent', 200),
  },
];

export default faults;
