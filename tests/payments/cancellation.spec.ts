import { ACCEPTED, COMBINATIONS, because, expect, label, req, test, settleMs } from '../../harness/areas/payments.js';

for (const c of COMBINATIONS) {
  const name = label(c);

  test(
    `${name}: cancelling answers 204, or 202 with transactionStatus and the self and status links`,
    req('payments.cancel.response'),
    async ({ payments }) => {
      payments.claim(c);
      const { basePath } = await payments.initiated(c);
      const res = await payments.cancel(basePath);
      await expect(res).toHaveStatus([202, 204]);
      if (res.status === 202) await expect(res).toMatchSchema('payments/cancellation-accepted');
    },
  );

  test(
    `${name}: a cancellation that needs authorisation carries the startAuthorisation link`,
    req('payments.cancel.start-authorisation-link'),
    async ({ payments }) => {
      payments.claim(c);
      test.skip(
        !payments.needsCancellationAuthorisation(c),
        `not claimed: the profile does not list ${c.product} in payments.cancellationAuthorisation`,
      );
      const { basePath } = await payments.initiated(c);
      const res = await payments.cancel(basePath);
      await expect(res).toHaveStatus(202);
      const links = res.json<{ _links?: Record<string, { href?: string }> }>()._links ?? {};
      expect(
        links.startAuthorisation?.href,
        because(
          `_links.startAuthorisation of a ${c.product} cancellation (section D); links were ${Object.keys(links).join(', ') || 'none'}`,
        ),
      ).toEqual(expect.any(String));
    },
  );

  test(
    `${name}: a cancellation authorisation is started, listed in cancellationIds and has an SCA status`,
    req('payments.cancel.authorisations'),
    async ({ payments }) => {
      payments.claim(c);
      test.skip(
        !payments.needsCancellationAuthorisation(c),
        `not claimed: the profile does not list ${c.product} in payments.cancellationAuthorisation`,
      );
      const { basePath } = await payments.initiated(c);
      await expect(await payments.cancel(basePath)).toHaveStatus(202);
      const created = await payments.sca.create(basePath, 'cancellation-authorisations', payments.psuHeaders());
      await expect(created).toHaveStatus(201);
      const id = created.json<{ authorisationId?: string }>().authorisationId;
      expect(id, because('an authorisationId for the cancellation')).toEqual(expect.any(String));
      const list = await payments.api.get(`${basePath}/cancellation-authorisations`);
      await expect(list).toHaveStatus(200);
      expect(
        list.json<{ cancellationIds?: string[] }>().cancellationIds,
        because('cancellationIds lists the cancellation authorisation'),
      ).toContain(id);
      const status = await payments.sca.status(`${basePath}/cancellation-authorisations/${id}`);
      await expect(status).toHaveStatus(200);
      expect(
        status.json<{ scaStatus?: string }>().scaStatus,
        because('the SCA status of a new cancellation authorisation'),
      ).toBe('received');
    },
  );

  test(`${name}: a cancelled payment ends CANC`, req('payments.cancel.cancelled-after-sca'), async ({ payments }) => {
    payments.claim(c);
    const { basePath } = await payments.initiated(c);
    const res = await payments.cancel(basePath);
    await expect(res).toHaveStatus([202, 204]);
    if (res.status === 202 && payments.needsCancellationAuthorisation(c)) {
      const sca = await payments.authorise(basePath, { sub: 'cancellation-authorisations' });
      expect(sca.scaStatus, because('the cancellation SCA of the reference PSU finalises')).toBe('finalised');
    }
    await expect
      .poll(() => payments.transactionStatus(basePath), {
        message: because(`transactionStatus of the cancelled ${name} payment`),
        intervals: [500],
        timeout: settleMs(payments.target.timeouts.scaMs),
      })
      .toBe('CANC');
  });

  test(
    `${name}: cancelling a payment past its time limit is answered 405 CANCELLATION_INVALID`,
    req('payments.cancel.time-limit'),
    async ({ payments }) => {
      payments.claim(c);
      test.skip(
        !payments.profile.payments?.executedOnAuthorisation?.includes(c.service),
        `not claimed: the profile does not list ${c.service} in payments.executedOnAuthorisation`,
      );
      const body = payments.body(c);
      delete body.requestedExecutionDate;
      const { basePath, sca } = await payments.initiateAuthorised(c, { body });
      expect(sca.scaStatus, because('the SCA of the reference PSU finalises')).toBe('finalised');
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
}
