import { expect, req, test } from '../../harness/areas/consents.js';

// The exact answer to a forwarded PSU header of the wrong format: the SHOULDs of header-formats.spec.ts
// judge the refusal on every operation that accepts the headers; the code, a SHOULD on the
// reference facts' table, is judged on create consent, which accepts them.

for (const [requirement, header, value] of [
  ['headers.psu-http-method.enum-code', 'PSU-Http-Method', 'FETCH'],
  ['headers.psu-device-id.uuid-code', 'PSU-Device-ID', 'device-0001'],
  ['headers.psu-geo-location.format-code', 'PSU-Geo-Location', 'GEO:59.33;18.07'],
] as const) {
  test(
    `create consent with ${header} "${value}" is answered 400 FORMAT_ERROR`,
    req(requirement),
    async ({ consents }) => {
      const res = await consents.create({ headers: { [header]: value } });
      await expect(res, `create consent, ${header} "${value}"`).toBeTppError(400, 'FORMAT_ERROR');
    },
  );
}
