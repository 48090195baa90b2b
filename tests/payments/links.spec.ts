import { notPointingAt } from '../../harness/http/link-target.js';
import { followLinks } from '../../harness/http/links.js';
import { because, expect, forEachCombination, label, req, test } from '../../harness/areas/payments.js';

// payments.initiate.response ("paymentId and links returned"): the links are followed, not only present.
forEachCombination((combination) => {
  test(
    'the links of an initiated payment point at it and lead somewhere: self, status and scaStatus read with a success',
    req('payments.initiate.response'),
    async ({ payments }) => {
      const { res, paymentId } = await payments.initiated(combination);
      const followed = await followLinks(payments.target, res.body, (href) => payments.api.get(href));
      expect(
        followed.length,
        because(`initiate ${label(combination)} payment returns links; got ${res.describe()}`),
      ).toBeGreaterThan(0);
      const payment = { id: paymentId, parent: combination.product, what: `the ${label(combination)} payment` };
      for (const { name, href, res: read, unresolved } of followed) {
        expect.soft(unresolved, because(`_links.${name} (${href}) must resolve to a URL`)).toBeUndefined();
        // A link of this payment leads to this payment (its id, then what the link's name calls for).
        if (!unresolved)
          expect.soft(notPointingAt(payments.target, { name, href }, payment), because(res.label)).toBeUndefined();
        if (read)
          await expect.soft(read, `GET _links.${name} (${href}) of the ${label(combination)} payment`).toSucceed();
      }
    },
  );
});
