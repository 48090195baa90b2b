import {
  forwardedHeaders,
  identificationHeaders,
  redirectNotificationHeaders,
} from '../../../harness/properties/headers-cases.js';
import { Binder, claimedFor, headersAccepted, onOperations, req, test } from '../../../harness/properties/headers.js';
import { runProperty } from '../../../harness/properties/run.js';
import { accepts, acceptsRedirectAndNotification } from '../../../harness/operations/header-rules.js';

// Generated: sets of optional headers drawn within every rule of "Common request headers"
// (harness/operations/header-rules.ts), each on an operation drawn among the claimed ones that
// accept the group (every group's), are accepted (2xx), as the hand-written checks judge one set
// of valid values per group (tests/headers/optional-headers.spec.ts). An operation whose call fails
// made plain too is not judged here: the test is blocked by its control when nothing else failed.
// A state-changing operation makes its prerequisites fresh for each case; a read shares the test's.
// The operations under an authorised consent (an SCA per test) are drawn from a depth of 100 cases
// (nightly) on (harness/properties/headers.ts).

test(
  'generated: every operation accepts any valid set of the forwarded PSU headers',
  req('headers.optional.psu-forwarded'),
  async ({ operations, target, depth, exchanges }) => {
    const accepted = headersAccepted(new Binder(operations));
    await runProperty({
      name: 'any subset of the forwarded PSU headers with valid values (and any X-Request-ID) is accepted',
      requirement: 'headers.optional.psu-forwarded',
      arbitrary: onOperations(claimedFor(target, accepts('psu-forwarded'), depth), forwardedHeaders()),
      check: accepted.check,
      exchanges,
      depth,
    });
    accepted.end();
  },
);

test(
  'generated: every operation that creates or updates an authorisation accepts valid PSU identification headers',
  req('headers.optional.psu-identification'),
  async ({ operations, target, depth, exchanges }) => {
    const accepted = headersAccepted(new Binder(operations));
    const corporateId =
      target.profile.psuContext === 'corporate' && target.psuCorporateId ? target.psuCorporateId : undefined;
    await runProperty({
      name: 'PSU-ID-Type (and in a corporate context PSU-Corporate-ID-Type) of any name is accepted beside PSU-ID',
      requirement: 'headers.optional.psu-identification',
      arbitrary: onOperations(
        claimedFor(target, accepts('psu-identification'), depth),
        identificationHeaders(corporateId),
      ),
      check: accepted.check,
      exchanges,
      depth,
    });
    accepted.end();
  },
);

test(
  'generated: every operation that creates a resource or starts an authorisation accepts valid redirect and notification headers',
  req('headers.optional.redirect-notification'),
  async ({ operations, target, depth, exchanges }) => {
    const accepted = headersAccepted(new Binder(operations));
    await runProperty({
      name: 'any non-empty subset of the redirect and notification headers with valid values is accepted',
      requirement: 'headers.optional.redirect-notification',
      arbitrary: onOperations(
        claimedFor(target, acceptsRedirectAndNotification, depth),
        redirectNotificationHeaders(target.redirectUri),
      ),
      check: accepted.check,
      exchanges,
      depth,
    });
    accepted.end();
  },
);
