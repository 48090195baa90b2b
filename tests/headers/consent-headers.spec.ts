import { consentRequest, expect, req, test } from '../../harness/areas/consents.js';

// PSU-Corporate-ID (Common request headers: only in a corporate context), shown on create consent.

test(
  'PSU-Corporate-ID with a private-context token is rejected',
  req('headers.psu-corporate-id.context'),
  async ({ consents, target }) => {
    const res = await consents.api.post(consents.path, {
      json: consentRequest(),
      scope: 'accountinformation private',
      headers: { ...consents.psuHeaders(), 'PSU-Corporate-ID': target.psuCorporateId || 'corporate-0001' },
    });
    if (res.status === 201) consents.created.push(res.json<{ consentId: string }>().consentId);
    await expect(res, 'PSU-Corporate-ID is allowed only in a corporate context').toBeRefused();
  },
);
