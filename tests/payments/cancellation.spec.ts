import { PARTLY_JUDGED_IN_RUN } from '../../harness/catalogue/resource-rules.js';
import { notJudged } from '../../harness/test.js';
import {
  AUTHORISED_SCA,
  ACCEPTED,
  because,
  expect,
  forEachCombination,
  label,
  req,
  test,
  settleMs,
} from '../../harness/areas/payments.js';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { CANCELLATION_LINKS, notPointingAt } from '../../harness/http/link-target.js';

forEachCombination(() => {
  test(
    'cancelling answers a success of one of the two readings: no content, or a body with transactionStatus',
    req('payments.cancel.response'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.cancel(basePath);
      // The specification shows no status code: the class is judged, and the shape of the reading given.
      await expect(res).toSucceed();
      const reading = payments.profile.payments.cancelAnswer;
      const needsAuthorisation = payments.needsCancellationAuthorisation(combination);
      if (!res.text.trim()) {
        // The no-content reading (Berlin Group's 204): a cancellation that needs no authorisation,
        // where the profile does not pin status-and-links. Nothing to read back: the specification
        // names no status for it (CANC is not among the values it shows; payments.cancel.cancelled-after-sca
        // asks for it as a SHOULD).
        const why =
          reading === 'status-and-links'
            ? 'the profile pins payments.cancelAnswer status-and-links (section D: "response: transactionStatus and links")'
            : needsAuthorisation
              ? `a ${combination.product} cancellation needs authorisation: its answer carries transactionStatus and the startAuthorisation link`
              : '';
        expect(why, because(`cancel payment answered with no body (${res.describe()}), where ${why}`)).toBe('');
        return;
      }
      if (reading === 'no-content' && !needsAuthorisation)
        expect(
          res.text.trim(),
          because(
            `the profile pins payments.cancelAnswer no-content: a cancellation that needs no authorisation answers no body; got ${res.describe()}`,
          ),
        ).toBe('');
      // The status-and-links reading (section D), or a cancellation that needs authorisation: the body.
      await expect(res).toMatchSchema('payments/cancellation-accepted');
      // "Next state: the status in the response" (States): the payment read back says what the answer said.
      const answered = res.json<{ transactionStatus: string }>().transactionStatus;
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because(
            `transactionStatus of the ${label(combination)} payment read back after its cancellation was answered ${res.describe()}`,
          ),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toBe(answered);
    },
  );

  test(
    'cancel payment answers transactionStatus and links wherever it answers a body, and always where the profile pins that reading',
    req('payments.cancel.status-and-links'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.cancel(basePath);
      await prerequisite('payments.cancel.response', 'cancel the payment', async () => expect(res).toSucceed());
      const claimed = payments.profile.payments.cancelAnswer;
      const empty = res.text.trim() === '';
      // An empty 2xx is Berlin Group's reading only as its 204: any other is neither reading.
      if (empty && claimed !== 'status-and-links')
        expect(
          res.status,
          because(
            `cancel payment answered no body: only Berlin Group's 204 is a reading without one (payments.cancelAnswer ${claimed}), any other 2xx answers section D's transactionStatus and links; got ${res.describe()}`,
          ),
        ).toBe(204);
      if (empty && claimed !== 'status-and-links')
        notJudged(
          `cancel payment answered Berlin Group's 204 with no body, the no-content reading the profile allows (payments.cancelAnswer ${claimed}); section D's structure is judged only on an answer with a body ${PARTLY_JUDGED_IN_RUN}`,
        );
      expect(
        empty,
        because(
          `the profile pins payments.cancelAnswer status-and-links (section D: "response: transactionStatus and links"): cancel payment answers that structure, not an empty body; got ${res.describe()}`,
        ),
      ).toBe(false);
      const body = res.json<{ transactionStatus?: unknown; _links?: unknown }>();
      expect(
        body.transactionStatus,
        because(`cancel payment answers transactionStatus (section D), a string; got ${res.describe()}`),
      ).toEqual(expect.any(String));
      // "transactionStatus and links": links are returned, not which (their names: payments.cancel.complete).
      expect(
        Object.keys(body._links && typeof body._links === 'object' ? body._links : {}).length,
        because(
          `cancel payment answers links (section D): _links, an object of at least one link; got ${res.describe()}`,
        ),
      ).toBeGreaterThan(0);
      await expect(body._links, because(`_links of ${res.label}`)).toMatchSchema('common/links');
    },
  );

  test(
    'a cancellation answered with a body carries the listed self and status links',
    req('payments.cancel.complete'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      const res = await payments.cancel(basePath);
      await prerequisite('payments.cancel.response', 'cancel the payment', async () => expect(res).toSucceed());
      // An empty answer (no-content) has no links to judge: payments.cancel.response judges when a body is due.
      if (!res.text.trim())
        notJudged(`the cancellation was answered with no body (${res.describe()}): there are no links to judge`);
      await expect(res).toMatchSchema('payments/cancellation-accepted-complete');
    },
  );

  test(
    'a cancellation that needs authorisation carries the startAuthorisation link',
    req('payments.cancel.start-authorisation-link'),
    async ({ payments, authorisedCancellation: combination }) => {
      const { basePath, paymentId } = await payments.initiated(combination);
      const res = await payments.cancel(basePath);
      requireSuccess(res, 'payments.cancel.response', `cancel the ${label(combination)} payment`);
      const links = res.json<{ _links?: Record<string, { href?: string }> }>()._links ?? {};
      const href = links.startAuthorisation?.href;
      expect(
        href,
        because(
          `_links.startAuthorisation of a ${combination.product} cancellation (section D); links were ${Object.keys(links).join(', ') || 'none'}`,
        ),
      ).toEqual(expect.any(String));
      // It starts this payment's cancellation authorisation: the payment's id, then cancellation-authorisations.
      const payment = {
        id: paymentId,
        parent: combination.product,
        what: `the cancelled ${label(combination)} payment`,
      };
      expect(
        notPointingAt(payments.target, { name: 'startAuthorisation', href: href! }, payment, CANCELLATION_LINKS),
        because(res.label),
      ).toBeUndefined();
    },
  );

  test(
    'a cancellation authorisation is started, listed in cancellationIds and has an SCA status',
    req('payments.cancel.authorisations'),
    async ({ payments, authorisedCancellation: combination }) => {
      const { basePath } = await payments.initiated(combination);
      requireSuccess(
        await payments.cancel(basePath),
        'payments.cancel.response',
        `cancel the ${label(combination)} payment`,
      );
      const created = await payments.sca.create(basePath, 'cancellation-authorisations', payments.psuHeaders());
      await expect(created).toSucceed();
      const id = created.json<{ authorisationId?: string }>().authorisationId;
      expect(id, because('an authorisationId for the cancellation')).toEqual(expect.any(String));
      const list = await payments.api.get(`${basePath}/cancellation-authorisations`);
      await expect(list).toSucceed();
      expect(
        list.json<{ cancellationIds?: string[] }>().cancellationIds,
        because('cancellationIds lists the cancellation authorisation'),
      ).toContain(id);
      const status = await payments.sca.status(`${basePath}/cancellation-authorisations/${id}`);
      await expect(status).toSucceed();
      expect(
        status.json<{ scaStatus?: string }>().scaStatus,
        because('the SCA status of a new cancellation authorisation'),
      ).toBe('received');
    },
  );

  test(
    'a cancelled payment ends CANC',
    req('payments.cancel.cancelled-after-sca'),
    async ({ payments, combination }) => {
      const { basePath } = await payments.initiated(combination);
      requireSuccess(
        await payments.cancel(basePath),
        'payments.cancel.response',
        `cancel the ${label(combination)} payment`,
      );
      if (payments.needsCancellationAuthorisation(combination)) {
        const sca = await payments.authorise(basePath, { sub: 'cancellation-authorisations' });
        expect(sca.scaStatus, because('the cancellation SCA of the reference PSU finalises')).toBe('finalised');
      }
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because(`transactionStatus of the cancelled ${label(combination)} payment`),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toBe('CANC');
    },
  );

  test(
    'cancelling a payment past its time limit is answered 405 CANCELLATION_INVALID',
    req('payments.cancel.time-limit'),
    async ({ payments, combination }) => {
      test.skip(
        !payments.profile.payments?.executedOnAuthorisation?.includes(combination.service),
        `not claimed: the profile does not list ${combination.service} in payments.executedOnAuthorisation`,
      );
      const body = payments.body(combination);
      delete body.requestedExecutionDate;
      const { basePath, sca } = await payments.initiateAuthorised(combination, { body });
      expect(sca.scaStatus, because('the SCA of the reference PSU finalises, or none is needed')).toMatch(
        AUTHORISED_SCA,
      );
      await expect
        .poll(() => payments.transactionStatus(basePath), {
          message: because('the undated payment is executed once authorised'),
          intervals: [500],
          timeout: settleMs(payments.target.timeouts.scaMs),
        })
        .toMatch(new RegExp(`^(${ACCEPTED.join('|')})$`));
      await expect(await payments.cancel(basePath)).toBeTppError(405, 'CANCELLATION_INVALID');
    },
  );
});
