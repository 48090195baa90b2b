import { notJudged } from '../../harness/test.js';
import { prerequisite } from '../../harness/http/broken.js';
import {
  BANK_CREATES,
  because,
  expect,
  offeredMethod,
  req,
  test,
  type ScaMethod,
} from '../../harness/areas/authorisations.js';

const DECOUPLED_PREFERENCE = ['mbid_same_device', 'mbid'];

/** The decoupled method to start: the same-device one of section F, else the first offered. */
const decoupledPick = (methods: ScaMethod[]) =>
  DECOUPLED_PREFERENCE.find((m) => methods.some((x) => x.authenticationMethodId === m)) ??
  methods[0]?.authenticationMethodId;

test(
  'create authorisation answers a success with authorisationId and scaMethods, and received when it gives scaStatus',
  req('authorisations.create.response'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    test.skip(b.bankCreated === true, BANK_CREATES);
    await expect(b.created).toSucceed();
    await expect(b.created).toMatchSchema('authorisations/authorisation-created');
  },
);

test(
  'create authorisation answers its scaStatus beside authorisationId and scaMethods',
  req('authorisations.create.complete'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    test.skip(b.bankCreated === true, BANK_CREATES);
    await expect(b.created).toMatchSchema('authorisations/authorisation-created-complete');
  },
);

test(
  'every SCA method of create authorisation carries authenticationType, authenticationMethodId and name',
  req('authorisations.sca-method.complete'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    if (b.methods.length === 0)
      notJudged(`create authorisation offered no SCA method, so there is none to judge: ${b.created.describe()}`);
    for (const m of b.methods)
      await expect
        .soft(m, `SCA method ${m.authenticationMethodId}`)
        .toMatchSchema('authorisations/sca-method-complete');
  },
);

test('create authorisation is answered 201', req('authorisations.create.response-code'), async ({ authorisations }) => {
  const b = await authorisations.begin();
  test.skip(b.bankCreated === true, BANK_CREATES);
  await expect(b.created).toHaveStatus(201);
});

test(
  'the start-authorisation POST of the consent operations carries authorisationId, and the other listed fields with their types',
  req('authorisations.create.start-response'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    test.skip(b.bankCreated === true, BANK_CREATES);
    await expect(b.created).toMatchSchema('authorisations/authorisation-start');
  },
);

test(
  'the start-authorisation POST of the consent operations carries scaStatus, authorisationId, psuMessage and the scaStatus link',
  req('authorisations.create.start-response-complete'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    test.skip(b.bankCreated === true, BANK_CREATES);
    await expect(b.created).toMatchSchema('authorisations/authorisation-start-complete');
  },
);

test(
  'list authorisations contains every authorisation created on the resource',
  req('authorisations.list.contains'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const second = await authorisations.sca.create(b.resourceBasePath, 'authorisations', authorisations.headers());
    // A bank may refuse a second authorisation while the first is open (one SCA is called for outside
    // a corporate context, section B); the list then holds the first alone.
    const created = [b.authorisationId];
    if (second.status >= 400 && second.status < 500)
      await expect(second, 'a second authorisation while the first is open').toBeRefused();
    else {
      await expect(second).toSucceed();
      created.push(second.json<{ authorisationId: string }>().authorisationId);
    }
    const list = await authorisations.consents.api.get(`${b.resourceBasePath}/authorisations`, {
      headers: authorisations.headers(),
    });
    await expect(list).toSucceed();
    await expect(list).toMatchSchema('authorisations/authorisation-list');
    const ids: string[] = list.json().authorisationIds;
    for (const id of created) {
      expect(ids, because(`authorisationIds must contain ${id}`)).toContain(id);
    }
  },
);

test(
  'starting with a decoupled method answers aspsp-sca-approach and challengeData, and the method chosen when it gives chosenScaMethod',
  req('authorisations.start.decoupled'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const method = await offeredMethod(b, decoupledPick, 'a decoupled start');
    const started = await authorisations.sca.start(b.href, method, authorisations.headers());
    await expect(started).toSucceed();
    await expect(started).toHaveHeader('aspsp-sca-approach', /^(DECOUPLED|REDIRECT)$/);
    await expect(started).toMatchSchema('authorisations/authorisation-started');
    // chosenScaMethod is listed, not required (authorisations.start.complete): when given, it is the method chosen.
    const chosen = started.json<{ chosenScaMethod?: { authenticationMethodId?: string } }>().chosenScaMethod;
    if (chosen !== undefined)
      expect(chosen.authenticationMethodId, because('chosenScaMethod is the method chosen')).toBe(method);
  },
);

test(
  'a decoupled start answers every listed field: chosenScaMethod, scaStatus, challengeData, psuMessage and the scaStatus link',
  req('authorisations.start.complete'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const method = await offeredMethod(b, decoupledPick, 'a decoupled start');
    const started = await prerequisite('authorisations.start.decoupled', 'start with a decoupled method', async () => {
      const res = await authorisations.sca.start(b.href, method, authorisations.headers());
      await expect(res).toSucceed();
      return res;
    });
    await expect(started).toMatchSchema('authorisations/authorisation-started-complete');
  },
);

test(
  'update PSU data on a decoupled authorisation answers a success and the listed fields with their types',
  req('authorisations.update-psu-data.decoupled'),
  async ({ authorisations }) => {
    const b = await authorisations.beginSameDevice();
    await prerequisite('authorisations.start.decoupled', `start with ${b.method}`, async () =>
      expect(b.started).toSucceed(),
    );
    const res = await authorisations.consents.api.put(b.href, { json: {}, headers: authorisations.headers() });
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled');
  },
);

test(
  'update PSU data on a decoupled authorisation answers scatransactionStatus, psuMessage and the scaStatus link',
  req('authorisations.update-psu-data.complete'),
  async ({ authorisations }) => {
    const b = await authorisations.beginSameDevice();
    await prerequisite('authorisations.start.decoupled', `start with ${b.method}`, async () =>
      expect(b.started).toSucceed(),
    );
    const res = await authorisations.consents.api.put(b.href, { json: {}, headers: authorisations.headers() });
    await prerequisite('authorisations.update-psu-data.decoupled', 'update PSU data', async () =>
      expect(res).toSucceed(),
    );
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled-complete');
  },
);
