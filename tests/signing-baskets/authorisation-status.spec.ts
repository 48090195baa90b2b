import { test as authorisationsTest } from '../../harness/areas/authorisations.js';
import { createdOn, expectScaMethodsOn, methodOf } from '../../harness/areas/resource-authorisations.js';
import { because, expect, req, test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { prerequisite } from '../../harness/http/broken.js';
import { mergeTests } from '../../harness/test.js';

// A basket's authorisation read and created as section F describes every resource's ("The
// operations use {base_url}/<resourceBasePath> for consent, payment or basket").

const test = mergeTests(basketsTest, authorisationsTest);

const sameDevice = (methods: string[]) => ['mbid_same_device', 'mbid'].find((m) => methods.includes(m));
/** The SCA statuses under way (States > Authorisation; Berlin Group's intermediate ones), and the ended ones. */
const LEFT_RECEIVED = ['started', 'psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'finalised', 'failed'];

test(
  "the SCA status of a basket's authorisation answers the SCA status response and moves as the SCA does",
  req('signing-baskets.authorisation.sca-status'),
  async ({ authorisations, baskets, basketPayment: _ }) => {
    const a = await createdOn({ authorisations, baskets }, 'basket');
    const read = async (when: string) => {
      const res = await a.sca.status(a.href, a.headers);
      await expect(res, because(`the SCA status of the basket's authorisation ${when}`)).toSucceed();
      await expect(res, because(`the SCA status ${when}`)).toMatchSchema('authorisations/sca-status');
      return String(res.json<{ scaStatus?: unknown }>().scaStatus);
    };
    expect(await read('once created'), because('a new authorisation reads received (States > Authorisation)')).toBe(
      'received',
    );
    const method = await methodOf(a, sameDevice, 'the decoupled flow (mbid_same_device or mbid)');
    const started = await a.sca.start(a.href, method, a.headers);
    await prerequisite('authorisations.start.decoupled', `start the basket's authorisation with ${method}`, async () =>
      expect(started).toSucceed(),
    );
    expect(
      LEFT_RECEIVED,
      because(`a started authorisation has left received (one of ${LEFT_RECEIVED.join(', ')})`),
    ).toContain(await read(`once started with ${method}`));
    const end = await a.sca.pollUntilEnd(a.href, 750, a.headers);
    expect(end.status, because("the basket's SCA of the reference PSU ends finalised")).toBe('finalised');
    expect(await read('once ended'), because('the SCA status once the SCA has ended')).toBe('finalised');
  },
);

test(
  "a basket's new authorisation answers the list of SCA methods",
  req('signing-baskets.authorisation.sca-methods'),
  async ({ authorisations, baskets }) => expectScaMethodsOn({ authorisations, baskets }, 'basket'),
);
