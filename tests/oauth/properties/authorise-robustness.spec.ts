import { block } from '../../../harness/http/broken.js';
import { registerSecret } from '../../../harness/evidence/redact.js';
import { test as oauthTest } from '../../../harness/areas/oauth.js';
import {
  authoriseCases,
  authoriseExamples,
  changedAuthorise,
  describeAuthoriseCase,
} from '../../../harness/properties/oauth-robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { depthFixture, type GeneratedFixtures } from '../../../harness/properties/test.js';
import { authoriseAnswer, classify } from '../../../harness/sca/authorise-answer.js';
import { req } from '../../../harness/test.js';

const test = oauthTest.extend<GeneratedFixtures>({ depth: depthFixture });

// Generated robustness: the TPP's authorise URL of a started redirect authorisation (a consent's)
// with response_type, client_id, redirect_uri, scope, state or code_challenge outside their forms,
// judged on the bank's own answer without a PSU (harness/sca/authorise-answer.ts, as the
// hand-written refusals of tests/oauth/authorize.spec.ts): never a 5xx, no code issued, nothing
// sent to a redirect_uri of another origin; beside the valid URL showing the bank's page.
test(
  'generated robustness: any authorise query is refused or shown, never a 5xx, no code issued',
  req('oauth.robustness.authorise-query'),
  async ({ redirect, depth, exchanges }) => {
    const start = await redirect.begin();
    const valid = start.authorizeUrl;
    if (!valid) block('oauth.sca-oauth.link', 'a scaOAuth link to change', start.started.describe());
    const control = await authoriseAnswer(redirect.browser, valid);
    if (control.kind !== 'shown')
      block('oauth.authorize.approve', "the valid authorise request reaches the bank's page", control.how);
    await runProperty({
      name: 'any authorise query is refused or shown, never a 5xx, no code issued',
      requirement: 'oauth.robustness.authorise-query',
      arbitrary: authoriseCases,
      check: async (c) => {
        const { url, untrusted } = changedAuthorise(valid, c);
        // The bank's own answer, read as authoriseAnswer reads it, a server error included.
        const res = await redirect.browser.get(url, {
          noAuth: true,
          allowRedirect: true,
          allow5xx: true,
          headers: { Accept: 'text/html' },
        });
        const answer = classify(res, url, untrusted);
        registerSecret(answer.code);
        const what = `the authorise request with ${describeAuthoriseCase(c)}`;
        if (answer.res.status >= 500)
          throw new Error(
            `${what}: expected no server error (a refusal or the bank's page); got ${answer.res.describe()}`,
          );
        if (answer.kind === 'issued')
          throw new Error(`${what}: nothing may be issued without the PSU; the bank ${answer.how}`);
      },
      examples: authoriseExamples,
      runs: authoriseExamples.length + depth.cases,
      exchanges,
      depth,
    });
  },
);
