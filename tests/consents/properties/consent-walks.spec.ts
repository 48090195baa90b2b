import fc from 'fast-check';
import { consentWalkSteps, deleteFirst, freshConsentModel } from '../../../harness/properties/consents-walk.js';
import { req, test } from '../../../harness/properties/consents.js';
import { runProperty } from '../../../harness/properties/run.js';
import { dependsOnControl } from '../../../harness/expect.js';

// Generated: walks over one consent (read its status, read it, authorise it, try another
// authorisation, delete it, delete it again, in any order), checked against the model of the state
// tables: each status shown is allowed after the last, nothing moves back, a deleted consent stays
// ended, forbidden steps refused.
test(
  'generated: walks over a consent keep to the state tables',
  req('consents.states.walk'),
  async ({ consents, depth, exchanges }) => {
    // The walk's refusals (another authorisation of a final or deleted consent, a second delete)
    // stand beside the same requests accepted where the tables allow them.
    dependsOnControl('authorisations.create.response');
    dependsOnControl('consents.delete.terminated');
    await runProperty({
      name: 'a walk over a consent keeps to the state tables',
      requirement: 'consents.states.walk',
      arbitrary: fc.record({
        // A third of the walks start from the consent deleted (the steps it forbids tried in most runs).
        deleted: fc.integer({ min: 0, max: 2 }).map((n) => n === 0),
        steps: fc.commands(consentWalkSteps(), { maxCommands: depth.walkLength }),
      }),
      check: async ({ deleted, steps }) => {
        const res = await consents.createdForStep();
        const body = res.body as
          { consentStatus?: string; scaMethods?: { authenticationMethodId?: string }[] } | undefined;
        const offered = body?.scaMethods
          ?.map((m) => m.authenticationMethodId)
          .filter((id): id is string => typeof id === 'string');
        const real = { consents, consentId: res.consentId, offered };
        const model = freshConsentModel(body?.consentStatus);
        if (deleted) await deleteFirst(model, real);
        await fc.asyncModelRun(() => ({ model, real }), steps);
      },
      exchanges,
      depth,
      // Four times the depth's walks (each under a second): a revived deleted consent needs delete, then another authorisation.
      runs: 4 * depth.walks,
      distinct: false,
    });
  },
);
