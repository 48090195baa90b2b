import { expect, firstClaimed, req, test } from '../../harness/areas/payments.js';

const BAD_IPS = [null, 'not-an-ip', '256.1.2.3', '2001:db8::1'];
const ipStep = (value: string | null) => `PSU-IP-Address ${value === null ? 'missing' : JSON.stringify(value)}`;

test(
  'initiate payment without PSU-IP-Address, or with a value that is not IPv4, is refused',
  req('headers.psu-ip-address.payments'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    for (const value of BAD_IPS) {
      await test.step(ipStep(value), async () => {
        await expect.soft(await payments.initiate(c!, { headers: { 'PSU-IP-Address': value } })).toBeRefused();
      });
    }
  },
);

test(
  'initiate payment without PSU-IP-Address, or with a value that is not IPv4, is answered 400',
  req('headers.psu-ip-address.payments-code'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    for (const value of BAD_IPS) {
      await test.step(ipStep(value), async () => {
        await expect.soft(await payments.initiate(c!, { headers: { 'PSU-IP-Address': value } })).toBeRefused(400);
      });
    }
  },
);

const REDIRECT_WITHOUT_URI = { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': null };

test(
  'initiate payment with TPP-Redirect-Preferred true and no TPP-Redirect-URI is refused',
  req('headers.tpp-redirect-uri.when-preferred'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    await expect(await payments.initiate(c!, { headers: REDIRECT_WITHOUT_URI })).toBeRefused();
  },
);

test(
  'initiate payment with TPP-Redirect-Preferred true and no TPP-Redirect-URI is answered 400',
  req('headers.tpp-redirect-uri.when-preferred-code'),
  async ({ payments }) => {
    const c = firstClaimed(payments.profile);
    test.skip(!c, 'not claimed: the profile claims no payment service and product');
    await expect(await payments.initiate(c!, { headers: REDIRECT_WITHOUT_URI })).toBeRefused(400);
  },
);
