import {
  AUTHORISED_SCA,
  ACCEPTED,
  because,
  expect,
  forEachCombination,
  label,
  req,
  settleMs,
  test,
  type Combination,
  type PaymentsClient,
} from '../../harness/areas/payments.js';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';

// Cancellation scenarios of an authorised payment that is not yet executed (its execution date, or
// a periodic payment's start date, lies ahead): cancelled through its cancellation authorisation,
// and left as it was when that authorisation fails.

/** An authorised payment of `c` whose execution date lies ahead, read back as accepted; its status. */
async function authorisedFutureDated(payments: PaymentsClient, c: Combination) {
  // The default bodies carry a requestedExecutionDate (a periodic payment a startDate) days ahead.
  const { basePath, sca } = await payments.initiateAuthorised(c);
  await prerequisite('authorisations.status.ends', `the SCA of the ${label(c)} payment`, async () =>
    expect(sca.scaStatus, because('the SCA of the reference PSU finalises, or none is needed')).toMatch(AUTHORISED_SCA),
  );
  let before = '';
  await prerequisite('payments.sca.accepted', `the authorised ${label(c)} payment is accepted`, async () => {
    await expect
      .poll(async () => (before = await payments.transactionStatus(basePath)), {
        message: because(`transactionStatus of the authorised, future-dated ${label(c)} payment`),
        intervals: [500],
        timeout: settleMs(payments.target.timeouts.scaMs),
      })
      .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
  });
  return { basePath, before };
}

/** Cancels the authorised payment: a 2xx is payments.cancel.authorised-future-dated's rule (its failure blocks). */
async function cancelled(payments: PaymentsClient, c: Combination, basePath: string) {
  return requireSuccess(
    await payments.cancel(basePath),
    'payments.cancel.authorised-future-dated',
    `cancel the authorised ${label(c)} payment`,
  );
}

forEachCombination(() => {
  test(
    'an authorised payment whose execution date lies ahead is cancelled (through its cancellation authorisation where the product needs one), and reads CANC',
    req('payments.cancel.authorised-future-dated'),
    async ({ payments, combination }) => {
      const { basePath } = await authorisedFutureDated(payments, combination);
      const res = await payments.cancel(basePath);
      await expect(
        res,
        because(`cancel the authorised ${label(combination)} payment whose execution date lies ahead`),
      ).toSucceed();
      if (payments.needsCancellationAuthorisation(combination)) {
        const sca = await payments.authorise(basePath, {
          sub: 'cancellation-authorisations',
          roots: { create: 'payments.cancel.authorisations' },
        });
        expect(
          sca.scaStatus,
          because(`the cancellation SCA of the authorised ${label(combination)} payment finalises`),
        ).toBe('finalised');
      }
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because(
            `transactionStatus of the authorised ${label(combination)} payment read back once cancelled`,
          ),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toBe('CANC');
    },
  );

  test(
    'a failed cancellation SCA leaves the authorised payment uncancelled: it reads the status it had',
    req('payments.cancel.failed-sca-uncancelled'),
    async ({ payments, failingPsu: failing, authorisedCancellation: combination }) => {
      const { basePath, before } = await authorisedFutureDated(payments, combination);
      const res = await cancelled(payments, combination, basePath);
      // The status the cancel answer gives is the state table's next state: either it or the one before is kept.
      const answered = res.text.trim() ? res.json<{ transactionStatus?: unknown }>().transactionStatus : undefined;
      const psu = { 'PSU-ID': failing };
      const sca = await payments.authorise(basePath, {
        sub: 'cancellation-authorisations',
        headers: psu,
        roots: { create: 'payments.cancel.authorisations' },
      });
      await prerequisite('authorisations.status.failed', `the cancellation SCA of PSU ${failing} fails`, async () =>
        expect(sca.scaStatus, because(`the cancellation SCA of PSU ${failing} (sca.failingPsuId)`)).toBe('failed'),
      );
      // Give a bank that acts on the end of the SCA its time, then read back.
      await new Promise((r) => setTimeout(r, Math.min(settleMs(payments.target.timeouts.scaMs), 2_000)));
      const after = await payments.transactionStatus(basePath);
      expect(
        [before, answered].filter((s) => s !== undefined).includes(after),
        because(
          `transactionStatus of the ${label(combination)} payment read back after its cancellation SCA failed: ${JSON.stringify(after)}, where the payment read ${JSON.stringify(before)} before the cancellation and the cancel answered ${JSON.stringify(answered)} (never CANC)`,
        ),
      ).toBe(true);
    },
  );
});
