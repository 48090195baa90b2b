import { followLinks } from '../../harness/http/links.js';
import { expect, req, test } from '../../harness/areas/signing-baskets.js';

// signing-baskets.create.response: the links, when given, are followed, not only present.
test(
  'the links of a created basket lead somewhere: self and status read with a success',
  req('signing-baskets.create.response'),
  async ({ baskets, basketPayment: _ }) => {
    const { res } = await baskets.createdBasket();
    await expect(res).toSucceed();
    for (const { name, href, res: read, unresolved } of await followLinks(baskets.api.target, res.body, (href) =>
      baskets.api.get(href),
    )) {
      expect.soft(unresolved, `_links.${name} (${href}) must resolve to a URL`).toBeUndefined();
      if (read) await expect.soft(read, `GET _links.${name} (${href}) of the created basket`).toSucceed();
    }
  },
);
