import { consentRequest, expect, req, test } from '../../harness/areas/consents.js';

// Common header rules the directory cannot show (it needs no X-BicFi and no PSU), tested on the consent operations.

test(
  'create consent without X-BicFi is rejected with a 4xx error',
  req('headers.x-bicfi.required'),
  async ({ consents }) => {
    const res = await consents.create({ headers: { 'X-BicFi': null } });
    await expect(res, 'create consent without X-BicFi').toBeRefused();
  },
);

test(
  'create consent with an X-BicFi that is not a BIC is rejected with a 4xx error',
  req('headers.x-bicfi.pattern'),
  async ({ consents }) => {
    for (const bic of ['ESSESES', 'essesess', 'ESSESESS1']) {
      const res = await consents.create({ headers: { 'X-BicFi': bic } });
      await expect(res, `create consent with X-BicFi "${bic}"`).toBeRefused();
    }
  },
);

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
