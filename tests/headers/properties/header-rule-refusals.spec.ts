import { brokenBicFis, needsBicFi, unknownConsentIds } from '../../../harness/properties/headers-rule-breaks.js';
import {
  Binder,
  claimedFor,
  headerRefused,
  onOperations,
  req,
  servedReads,
  test,
} from '../../../harness/properties/headers.js';
import { runProperty } from '../../../harness/properties/run.js';

// Generated: X-BicFi values breaking a rule the format properties leave unbroken, near the target's
// valid value, judged as their hand-written check judges them (tests/headers/bicfi.spec.ts) and as
// header-refusals.spec.ts judges its values: refused (a 4xx carrying no data), nothing changed,
// beside the same call with the valid value accepted.

test(
  'generated: every operation requiring X-BicFi called with one off the BIC pattern refuses it',
  req('headers.x-bicfi.pattern'),
  async ({ operations, target, depth, exchanges }) => {
    const binder = new Binder(operations);
    await runProperty({
      name: 'an X-BicFi off the BIC pattern is refused (a 4xx carrying no data) and changes nothing, beside the valid one accepted',
      requirement: 'headers.x-bicfi.pattern',
      arbitrary: onOperations(claimedFor(target, needsBicFi, depth), brokenBicFis(target.bicFi)),
      check: headerRefused(binder),
      exchanges,
      depth,
    });
  },
);

// A Consent-ID the bank never issued, near the test's own authorised consent (a character changed,
// dropped or appended, another uuid), on every claimed account read: refused as the hand-written
// check judges its unknown id (tests/accounts/consent.spec.ts), beside the read with the test's own
// Consent-ID accepted.
test(
  "generated: every account read with a Consent-ID near the test's own, never issued, refuses it",
  req('accounts.consent.unknown'),
  async ({ operations, target, depth, exchanges }) => {
    const ids = claimedFor(target, (o) => o.group === 'accounts' && o.requires.includes('Consent-ID'), depth);
    const { consentId } = await operations.accountRead();
    const binder = new Binder(operations);
    // A read the target does not serve with the valid Consent-ID proves nothing here: not judged.
    const served = await servedReads(binder, ids);
    await runProperty({
      name: 'a Consent-ID never issued, near the valid one, is refused (a 4xx carrying no data), beside the valid one accepted',
      requirement: 'accounts.consent.unknown',
      arbitrary: onOperations(served, unknownConsentIds(consentId)),
      check: headerRefused(binder),
      exchanges,
      depth,
    });
  },
);
