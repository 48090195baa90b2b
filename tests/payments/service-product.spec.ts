import { COMBINATIONS, label, unclaimed } from '../../harness/areas/payments.js';
import { paymentCombination, refusalTests, test } from '../../harness/operations.js';

// A payment's sub-resources addressed under another payment service or product than its own
// (resourceBasePath psd2/paymentinitiation/v1/<payment-service>/<payment-product>/<paymentId>):
// every claimed operation on a payment (read, status, cancel, its authorisations and its
// cancellation authorisations), each tried under up to two other claimed combinations that share
// the service or the product; a state-changing one leaves the payment or authorisation as it was.

for (const t of refusalTests({
  requirement: 'payments.path.service-product',
  title:
    "on a payment, addressed under another payment service or product than the payment's, is refused and changes nothing",
  applies: (o) => o.group === 'payments' && o.template.includes('{paymentId}'),
  cases: (o, target) => {
    const c = paymentCombination(target, o)!;
    const others = COMBINATIONS.filter(
      (x) =>
        !unclaimed(target, x) &&
        ((x.service === c.service && x.product !== c.product) || (x.service !== c.service && x.product === c.product)),
    ).slice(0, 2);
    // The operations on the first claimed combination: with no other claimed combination there is nothing to try.
    if (!o.id.startsWith('payments.cancellation-authorisations.'))
      test.skip(others.length === 0, 'not claimed: the profile claims one payment service and product only');
    const own = `/${c.service}/${c.product}/`;
    return others.map((x) => ({
      what: `the ${label(c)} payment addressed as ${label(x)}`,
      call: { path: (p: string) => p.replace(own, `/${x.service}/${x.product}/`) },
    }));
  },
}))
  test(t.title, t.details, t.body);
