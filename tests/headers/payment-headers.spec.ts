import { COMBINATIONS, expect, label, req, test, unclaimed } from '../../harness/areas/payments.js';

// PSU-IP-Address (Common request headers): "Required on initiate payment and create signing basket",
// an IPv4 address; judged here on initiate payment of every claimed service and product (create
// signing basket: signing-baskets.create.psu-ip-address, tests/signing-baskets). TPP-Redirect-URI
// with TPP-Redirect-Preferred true: redirect-uri.spec.ts, on every operation that takes it.

/** No IPv6 address among the malformed: the header is typed for what the TPP sends, and a bank may take an IPv6 one. */
const MALFORMED_IPS = ['not-an-ip', '256.1.2.3'];
const ipStep = (value: string | null) => `PSU-IP-Address ${value === null ? 'missing' : JSON.stringify(value)}`;

// "Required on initiate payment": its absence refused is a MUST; a malformed value refused, and the
// code, are SHOULDs (no sentence says the bank refuses a value of another form).
for (const [requirement, values, status, title] of [
  ['headers.psu-ip-address.payments', [null], undefined, 'without PSU-IP-Address is refused'],
  [
    'headers.psu-ip-address.payments-format',
    MALFORMED_IPS,
    undefined,
    'with a PSU-IP-Address that is no IP address is refused',
  ],
  [
    'headers.psu-ip-address.payments-code',
    [null, ...MALFORMED_IPS],
    400,
    'without PSU-IP-Address, or with one that is no IP address, is answered 400',
  ],
] as const) {
  test(`initiate payment of every claimed service and product ${title}`, req(requirement), async ({ payments }) => {
    const claimed = COMBINATIONS.filter((c) => !unclaimed(payments.target, c));
    test.skip(!claimed.length, 'not claimed: the profile claims no payment service and product');
    for (const c of claimed) {
      for (const value of values) {
        const res = await payments.initiate(c, { headers: { 'PSU-IP-Address': value } });
        await expect.soft(res, `initiate ${label(c)} payment, ${ipStep(value)}`).toBeRefused(status);
      }
    }
  });
}
