import type { Fault } from './fault.js';
import { BgError } from '../errors.js';
import { beforeHandler, rewriteJson } from '../hooks.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/consents/generated/) finds: the hand-written read-back sends two references in each list.

const CONSENT = /^\/psd2\/consent\/v1\/consents\/[^/]+$/;
const CREATE = /^\/psd2\/consent\/v1\/consents$/;

const faults: Fault[] = [
  {
    id: 'consents.frequency-above-five-capped',
    description: 'a frequencyPerDay of 6 or more is taken as 4 (5, the value the hand-written check sends, is refused)',
    breaks: ['consents.limits.frequency-max'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = req.body as { frequencyPerDay?: unknown } | undefined;
        if (typeof b?.frequencyPerDay === 'number' && b.frequencyPerDay >= 6) b.frequencyPerDay = 4;
      }),
  },
  {
    id: 'consents.read-keeps-two-references',
    description:
      'read consent answers at most the first two account references of each access list (a third and a fourth are dropped)',
    breaks: ['consents.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: CONSENT }, (body: { access?: Record<string, unknown> }) => {
        for (const [list, refs] of Object.entries(body.access ?? {}))
          if (Array.isArray(refs)) body.access![list] = refs.slice(0, 2);
      }),
  },
  {
    id: 'consents.combined-session-declined-though-offered',
    description:
      'create consent with combinedServiceIndicator true is declined with 400 SESSIONS_NOT_SUPPORTED, by a bank whose profile claims combined sessions offered (consents.combinedSessions, the reference profile)',
    breaks: ['consents.create.combined-service', 'consents.create.response'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if ((req.body as { combinedServiceIndicator?: unknown } | undefined)?.combinedServiceIndicator === true)
          throw new BgError(
            400,
            'SESSIONS_NOT_SUPPORTED',
            'combined sessions are not offered',
            'combinedServiceIndicator',
          );
      }),
  },
  {
    id: 'consents.baseline-declined-as-sessions',
    description:
      'every create consent, combinedServiceIndicator false included, is declined with 400 SESSIONS_NOT_SUPPORTED, by a bank whose profile lets it decline combined sessions: a decline beside a refused baseline',
    // Refusing the baseline, every check that makes it fails or is blocked: the ones its spec files judge.
    breaks: [
      'consents.create.response',
      'consents.create.combined-service',
      'consents.create.response-code',
      'consents.valid-until.today',
    ],
    claims: { consents: { combinedSessions: 'may-decline' } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, () => {
        throw new BgError(
          400,
          'SESSIONS_NOT_SUPPORTED',
          'combined sessions are not offered',
          'combinedServiceIndicator',
        );
      }),
  },
];

export default faults;
