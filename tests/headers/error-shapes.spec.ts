import { randomUUID } from 'node:crypto';
import { aisConsent, test as accountsTest } from '../../harness/areas/accounts.js';
import { test as authorisationsTest } from '../../harness/areas/authorisations.js';
import { ACCEPTED, because, expect, req, settleMs, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { firstClaimed } from '../../harness/areas/payments.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { mergeTests } from '../../harness/test.js';

// "Error and information messages use the TPP message shape" (Errors 1): every error, whatever
// its status, not only the 400 of a malformed call (tests/headers/common-rules.spec.ts). The
// errors the flows give, one of each status the reference facts name: 403 (an unknown
// Consent-ID), 403 or 404 (an unknown payment), 405 (cancelling an executed payment), 409 (a
// second start of the same authorisation) and 429 (a second read under a one-off consent).

const test = mergeTests(accountsTest, basketsTest, authorisationsTest);

test(
  'error answers of every status the flows give (403, 404, 405, 409, 429) carry tppMessages of category, code, path and text',
  req('headers.errors.tpp-messages'),
  async ({ accounts, consents, payments, authorisations, target }) => {
    const errors: [string, ApiResponse][] = [];
    errors.push(['an account list with a Consent-ID never issued', await accounts.list(randomUUID())]);
    const c = target.profile.features.includes('payments') ? firstClaimed(target) : undefined;
    if (c) errors.push(['the read of an unknown payment', await payments.read(payments.basePath(c, randomUUID()))]);

    // 409: the method of an authorisation is chosen once (States > Authorisation: received → started).
    const b = await authorisations.begin({ method: 'mbid_same_device' });
    if (b.started && b.started.status < 300)
      errors.push([
        'a second start of a started authorisation',
        await authorisations.sca.start(b.href, 'mbid_same_device', authorisations.headers()),
      ]);

    // 429: a one-off consent's one access spent.
    const oneOff = await accounts.authorised(consents, aisConsent());
    if ((await accounts.list(oneOff)).status < 300)
      errors.push(['a second read under a one-off consent', await accounts.list(oneOff)]);

    // 405: a payment executed once authorised, cancelled (where the profile says which are).
    const executed = c && target.profile.payments?.executedOnAuthorisation?.includes(c.service) ? c : undefined;
    if (executed) {
      const body = payments.body(executed);
      delete body.requestedExecutionDate;
      const { basePath, sca } = await payments.initiateAuthorised(executed, { body });
      if (sca.scaStatus === 'finalised') {
        await expect
          .poll(() => payments.transactionStatus(basePath), {
            intervals: [500],
            timeout: settleMs(target.timeouts.scaMs),
          })
          .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
        errors.push(['the cancel of an executed payment', await payments.cancel(basePath)]);
      }
    }

    const judged = errors.filter(([, res]) => res.status >= 400 && res.status < 500);
    for (const [what, res] of errors.filter(([, r]) => !judged.some(([, j]) => j === r)))
      test.info().annotations.push({
        type: 'not judged',
        description: `${what}: answered ${res.status}, no error (its own requirement judges it)`,
      });
    expect(judged.length, because('at least one of the flows answers an error to judge')).toBeGreaterThan(0);
    for (const [what, res] of judged) await expect.soft(res, because(what)).toBeTppError(res.status);
  },
);
