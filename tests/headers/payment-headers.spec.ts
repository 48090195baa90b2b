import { COMBINATIONS, expect, label, req, test, unclaimed } from '../../harness/areas/payments.js';

// PSU-IP-Address (Common request headers): "Required on initiate payment and create signing basket",
// an IPv4 address; judged here on initiate payment of every claimed service and product (create
// signing basket: signing-baskets.create.psu-ip-address, tests/signing-baskets). TPP-Redirect-URI
// with TPP-Redirect-Preferred true: redirect-uri.spec.ts, on every operation that takes it.

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
      const claimed = COMBINATIONS.filter((c) => !unclaimed(payments.target, c));
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
