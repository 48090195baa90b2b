import { COMBINATIONS, expect, firstClaimed, label, req, test, unclaimed } from '../../harness/areas/payments.js';

// PSU-IP-Address (Common request headers): "Required on initiate payment and create signing basket",
// an IPv4 address; judged here on initiate payment of every claimed service and product (create
// signing basket: signing-baskets.create.psu-ip-address, tests/signing-baskets).

const BAD_IPS = [null, 'not-an-ip', '256.1.2.3', '2001:db8::1'];
const ipStep = (value: string | null) => `PSU-IP-Address ${value === null ? 'missing' : JSON.stringify(value)}`;

for (const [requirement, status, title] of [
  ['headers.psu-ip-address.payments', undefined, 'is refused'],
  ['headers.psu-ip-address.payments-code', 400, 'is answered 400'],
] as const) {
  test(
    `initiate payment of every claimed service and product without PSU-IP-Address, or with a value that is not IPv4, ${title}`,
    req(requirement),
    async ({ payments }) => {
      const claimed = COMBINATIONS.filter((c) => !unclaimed(payments.profile, c));
      test.skip(!claimed.length, 'not claimed: the profile claims no payment service and product');
      for (const c of claimed) {
        for (const value of BAD_IPS) {
          const res = await payments.initiate(c, { headers: { 'PSU-IP-Address': value } });
          await expect.soft(res, `initiate ${label(c)} payment, ${ipStep(value)}`).toBeRefused(status);
        }
      }
    },
  );
}

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
