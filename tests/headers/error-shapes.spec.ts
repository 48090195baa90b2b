import { randomUUID } from 'node:crypto';
import { aisConsent, test as accountsTest } from '../../harness/areas/accounts.js';
import { sameDeviceMethod, test as authorisationsTest } from '../../harness/areas/authorisations.js';
import { ACCEPTED, because, expect, req, settleMs, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { AUTHORISED_SCA, firstClaimed } from '../../harness/areas/payments.js';
import { isSuiteError } from '../../harness/http/broken.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { mergeTests } from '../../harness/test.js';

// "Error and information messages use the TPP message shape" (Errors 1): every error, whatever
// its status, not only the 400 of a malformed call (tests/headers/common-rules.spec.ts). The
// errors the flows give, one of each status the reference facts name: 403 (an unknown
// Consent-ID), 403 or 404 (an unknown payment), 405 (cancelling an executed payment), 409 (a
// second start of the same authorisation) and 429 (a second read under a one-off consent).

const test = mergeTests(accountsTest, basketsTest, authorisationsTest);

/**
 * A case's error, provoked by steps of its own: a step that fails (the bank refuses the valid
 * set-up, the SCA does not end) leaves that case not judged, saying why, and the others judged.
 */
async function provoked(what: string, make: () => Promise<ApiResponse | undefined>): Promise<[string, ApiResponse][]> {
  try {
    const res = await make();
    if (res) return [[what, res]];
    test.info().annotations.push({ type: 'not judged', description: `${what}: its set-up did not come about` });
  } catch (e) {
    if (isSuiteError(String(e))) throw e;
    test.info().annotations.push({
      type: 'not judged',
      description: `${what}: a step of its set-up failed (${String((e as Error).message ?? e)
        .split('\n')[0]
        .slice(0, 200)})`,
    });
  }
  return [];
}

test(
  'error answers of every status the flows give (403, 404, 405, 409, 429) carry tppMessages of category, code, path and text',
  req('headers.errors.tpp-messages'),
  async ({ accounts, consents, payments, authorisations, target }) => {
    const c = target.profile.features.includes('payments') ? firstClaimed(target) : undefined;
    const executed = c && target.profile.payments?.executedOnAuthorisation?.includes(c.service) ? c : undefined;
    const errors: [string, ApiResponse][] = [
      ['an account list with a Consent-ID never issued', await accounts.list(randomUUID())],
      ...(c
        ? await provoked('the read of an unknown payment', () => payments.read(payments.basePath(c, randomUUID())))
        : []),
      // 409: the method of an authorisation is chosen once (States > Authorisation: received → started).
      ...(await provoked('a second start of a started authorisation', async () => {
        const b = await authorisations.begin();
        const method = sameDeviceMethod(b.methods);
        if (!method) return undefined;
        const first = await authorisations.sca.start(b.href, method, authorisations.headers());
        return first.status < 300 ? authorisations.sca.start(b.href, method, authorisations.headers()) : undefined;
      })),
      // 429: a one-off consent's one access spent.
      ...(await provoked('a second read under a one-off consent', async () => {
        const oneOff = await accounts.authorised(consents, aisConsent());
        return (await accounts.list(oneOff)).status < 300 ? accounts.list(oneOff) : undefined;
      })),
      // 405: a payment executed once authorised, cancelled (where the profile says which are).
      ...(executed
        ? await provoked('the cancel of an executed payment', async () => {
            const body = payments.body(executed);
            delete body.requestedExecutionDate;
            const { basePath, sca } = await payments.initiateAuthorised(executed, { body });
            if (!AUTHORISED_SCA.test(sca.scaStatus)) return undefined;
            await expect
              .poll(() => payments.transactionStatus(basePath), {
                intervals: [500],
                timeout: settleMs(target.timeouts.scaMs),
              })
              .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
            return payments.cancel(basePath);
          })
        : []),
    ];
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
