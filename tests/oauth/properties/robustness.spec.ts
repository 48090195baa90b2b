import { test } from '../../../harness/properties/headers.js';
import { tokenCases, tokenCheck, tokenExamples } from '../../../harness/properties/oauth-robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';

// Generated robustness: the token endpoint's client credentials form outside its forms (each field
// left out, empty, a near miss, a text outside the minimum set, sent twice; an unknown parameter;
// another content type; a malformed body), beside the valid form accepted: never a 5xx; a refusal
// is a 400 or 401 with an RFC 6749 error body and no access_token (as tests/oauth/token.spec.ts
// judges its refusals); an acceptance is a token response. Each field left out and each sent twice
// are tried first.
test(
  'generated robustness: any form to the token endpoint is refused with an RFC 6749 error or answered a token, never a 5xx',
  req('oauth.robustness.any-input'),
  async ({ operations, target, depth, exchanges }) => {
    test.skip(
      target.profile.authentication === 'none',
      'not claimed: the bank takes no authentication (no token endpoint)',
    );
    await runProperty({
      name: 'any form to the token endpoint is refused with an RFC 6749 error or answered a token, never a 5xx',
      requirement: 'oauth.robustness.any-input',
      arbitrary: tokenCases,
      check: tokenCheck(operations.c.consents.api, target),
      examples: tokenExamples,
      runs: tokenExamples.length + depth.cases,
      exchanges,
      depth,
    });
  },
);
