import { notPointingAt } from '../../harness/http/link-target.js';
import { followLinks } from '../../harness/http/links.js';
import { because, expect, req, test } from '../../harness/areas/consents.js';

// consents.create.response: the links returned are followed, not only present.
test(
  'the links of a created consent point at it and lead somewhere: self, status and scaStatus read with a success',
  req('consents.create.response'),
  async ({ consents }) => {
    const res = await consents.create();
    await expect(res).toSucceed();
    const followed = await followLinks(consents.api.target, res.body, (href) => consents.api.get(href));
    expect(
      followed.map((l) => l.name),
      because(`create consent returns the links status and scaStatus; got ${res.describe()}`),
    ).toEqual(expect.arrayContaining(['status', 'scaStatus']));
    const consent = { id: res.json<{ consentId: string }>().consentId, what: 'the created consent' };
    for (const { name, href, res: read, unresolved } of followed) {
      expect.soft(unresolved, because(`_links.${name} (${href}) must resolve to a URL`)).toBeUndefined();
      // A link of this consent leads to this consent (its id, then what the link's name calls for).
      if (!unresolved)
        expect.soft(notPointingAt(consents.api.target, { name, href }, consent), because(res.label)).toBeUndefined();
      if (read) await expect.soft(read, `GET _links.${name} (${href}) of the created consent`).toSucceed();
    }
  },
);
