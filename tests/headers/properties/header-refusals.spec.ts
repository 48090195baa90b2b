import { brokenHeaders } from '../../../harness/properties/headers-cases.js';
import { Binder, claimedFor, headerRefused, onOperations, req, test } from '../../../harness/properties/headers.js';
import { runProperty } from '../../../harness/properties/run.js';
import { FORMAT_RULES, type FormatRequirement } from '../../../harness/operations/header-rules.js';

// Generated: a header value breaking one rule of "Common request headers" near a valid value (a
// decimal too many or too few, an octet over 255, three or five octets, a uuid with one character
// or one group's length off, a method in lower case or another method), on an operation drawn
// among the claimed ones the rule governs (every group's), is refused (a 4xx carrying no data) and
// changes nothing, beside the same call with the valid value it was made from accepted in the same
// case (its positive control). Where that control fails the case proves nothing: its refusal is
// judged only where a call of its kind was seen accepted elsewhere in the run, as the hand-written
// checks' refusals are (tests/headers/header-formats.spec.ts, request-id.spec.ts); a
// counterexample on another operation stands. The operations under an authorised
// consent (an SCA per test) are drawn from a depth of 100 cases (nightly) on.

const RULES: [FormatRequirement, string][] = [
  ['headers.psu-http-method.enum', 'a PSU-Http-Method in lower case or another method'],
  ['headers.psu-device-id.uuid', 'a PSU-Device-ID that is a uuid but for one character or one group'],
  ['headers.psu-geo-location.format', 'a PSU-Geo-Location off its form or its six decimals in one number'],
  ['headers.psu-ip-address.format', 'a PSU-IP-Address with an octet over 255, or of three or five octets'],
  ['headers.x-request-id.uuid', 'an X-Request-ID that is a uuid but for one character or one group'],
];

for (const [requirement, value] of RULES)
  test(
    `generated: every operation called with ${value} refuses it and changes nothing`,
    req(requirement),
    async ({ operations, target, depth, exchanges }) => {
      const binder = new Binder(operations);
      await runProperty({
        name: `${value} is refused (a 4xx carrying no data) and changes nothing, beside the valid value accepted`,
        requirement,
        arbitrary: onOperations(
          claimedFor(target, FORMAT_RULES[requirement].applies, depth),
          brokenHeaders(requirement),
        ),
        check: headerRefused(binder),
        exchanges,
        depth,
      });
    },
  );
