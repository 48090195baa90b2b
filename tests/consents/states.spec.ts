import { because, consentRequest, expect, req, test, type ConsentsClient } from '../../harness/areas/consents.js';

// Read consent only lists consentStatus: without it, the consent status operation's.
const statusOf = (consents: ConsentsClient, id: string) => consents.consentStatus(id);

/** Creates a consent of `psuId` and drives its SCA to the end. */
async function authorisedFor(consents: ConsentsClient, psuId: string, recurring: boolean) {
  const headers = { ...consents.psuHeaders(), 'PSU-ID': psuId };
  const body = consentRequest(recurring ? {} : { recurringIndicator: false, frequencyPerDay: 1 });
  const { consentId, sca } = await consents.createAuthorised({ body, headers, sca: { headers } });
  expect(sca.scaStatus, because(`the SCA of consent ${consentId} must finalise`)).toBe('finalised');
  // The status may follow the SCA a moment later: awaited within timeouts.scaMs.
  await consents.statusSettles(
    consentId,
    'valid',
    because(`consent ${consentId} must be valid once its SCA is finalised`),
    headers,
  );
  return consentId;
}

test(
  'a consent whose SCA fails becomes rejected',
  req('consents.state.rejected-after-failed-sca'),
  async ({ consents, failingPsu: failing }) => {
    const headers = { ...consents.psuHeaders(), 'PSU-ID': failing };
    const { consentId, sca } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      headers,
      sca: { headers },
    });
    expect(sca.scaStatus, because('the SCA of the failing PSU fails')).toBe('failed');
    await consents.statusSettles(consentId, 'rejected', because('consentStatus after a failed SCA'));
  },
);

// The two checks below share the profile's isolated PSUs (a recurring consent authorised for one of
// them ends the former of that PSU): they run one after the other, never side by side.
test.describe('recurring consents of the isolated PSUs', () => {
  test.describe.configure({ mode: 'default' });

  test(
    "a new recurring consent of the same PSU, once authorised (not before), expires the former one, and no other PSU's",
    req('consents.state.recurring-expires-former'),
    async ({ consents, target }) => {
      // PSUs of their own: this check expires recurring consents, which must not hit other tests' consents.
      const ids = target.profile.consents?.isolatedPsuIds;
      const psu = ids?.[0] ?? target.psuId;
      const other = ids?.[1];
      // Another PSU's recurring consent: the rule is the same PSU's alone.
      const others = other ? await authorisedFor(consents, other, true) : undefined;
      const former = await authorisedFor(consents, psu, true);
      // The new recurring consent, created but not yet authorised: the former stays valid until then.
      const headers = { ...consents.psuHeaders(), 'PSU-ID': psu };
      const created = await consents.createdForStep({ body: consentRequest(), headers });
      const latter = created.json<{ consentId: string }>().consentId;
      expect(
        await statusOf(consents, former),
        because(`the former recurring consent stays valid while the new one (${latter}) is not authorised`),
      ).toBe('valid');
      const sca = await consents.sca.authorise(consents.basePath(latter), { headers });
      expect(sca.scaStatus, because(`the SCA of consent ${latter} must finalise`)).toBe('finalised');
      // The row names no delay: a bank may expire the former by a batch some seconds later. Awaited
      // as long as an SCA may take (timeouts.scaMs).
      await expect
        .poll(() => statusOf(consents, former), {
          message: because(
            `the former recurring consent must be expired once ${latter} is authorised (awaited ${target.timeouts.scaMs} ms)`,
          ),
          intervals: [500, 1000],
          timeout: target.timeouts.scaMs,
        })
        .toBe('expired');
      await consents.statusSettles(
        latter,
        'valid',
        because('the new recurring consent is valid once its SCA is finalised'),
      );
      if (others)
        expect(
          await statusOf(consents, others),
          because(`the recurring consent of another PSU stays valid when ${latter} is authorised`),
        ).toBe('valid');
    },
  );

  test(
    'authorising a one-off consent leaves the recurring consent valid',
    req('consents.state.one-off-keeps-former'),
    async ({ consents, target }) => {
      const psu = target.profile.consents?.isolatedPsuIds?.[1] ?? target.psuId;
      const recurring = await authorisedFor(consents, psu, true);
      await authorisedFor(consents, psu, false);
      expect(
        await statusOf(consents, recurring),
        because('a one-off consent does not end the recurring consent of the PSU'),
      ).toBe('valid');
    },
  );
});
