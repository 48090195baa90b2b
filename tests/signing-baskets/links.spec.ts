import { notPointingAt } from '../../harness/http/link-target.js';
import { followLinks } from '../../harness/http/links.js';
import { expect, req, test } from '../../harness/areas/signing-baskets.js';

// signing-baskets.create.response: the links, when given, are followed, not only present.
test(
  'the links of a created basket point at it and lead somewhere: self and status read with a success',
  req('signing-baskets.create.response'),
  async ({ baskets, basketPayment: _ }) => {
    const { res, basketId } = await baskets.createdBasket();
    await expect(res).toSucceed();
    const basket = { id: basketId, what: 'the created basket' };
    for (const { name, href, res: read, unresolved } of await followLinks(baskets.api.target, res.body, (href) =>
      baskets.api.get(href),
    )) {
      expect.soft(unresolved, `_links.${name} (${href}) must resolve to a URL`).toBeUndefined();
      // A link of this basket leads to this basket (its id, then what the link's name calls for).
      if (!unresolved)
        expect.soft(notPointingAt(baskets.api.target, { name, href }, basket), res.label).toBeUndefined();
      if (read) await expect.soft(read, `GET _links.${name} (${href}) of the created basket`).toSucceed();
    }
  },
);
