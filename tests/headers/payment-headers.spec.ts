import { expect, firstClaimed, req, test } from '../../harness/areas/payments.js';

test(
  'initiate payment without PSU-IP-Address, or with a value that is not IPv4, is rejected with 400',
  req('headers.psu-ip-address.payments'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    for (const value of [null, 'not-an-ip', '256.1.2.3', '2001:db8::1']) {
      await test.step(`PSU-IP-Address ${value === null ? 'missing' : JSON.stringify(value)}`, async () => {
        await expect.soft(await payments.initiate(c!, { headers: { 'PSU-IP-Address': value } })).toBeTppError(400);
      });
    }
  },
);

test(
  'initiate payment with TPP-Redirect-Preferred true and no TPP-Redirect-URI is rejected with 400',
  req('headers.tpp-redirect-uri.when-preferred'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    await expect(
      await payments.initiate(c!, { headers: { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': null } }),
    ).toBeTppError(400);
  },
);
