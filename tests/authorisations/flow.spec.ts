import { because, expect, req, test } from '../../harness/areas/authorisations.js';

const DECOUPLED_PREFERENCE = ['mbid_same_device', 'mbid'];

test(
  'create authorisation answers a success with authorisationId, scaMethods and scaStatus received',
  req('authorisations.create.response'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    await expect(b.created).toSucceed();
    await expect(b.created).toMatchSchema('authorisations/authorisation-created');
  },
);

test('create authorisation is answered 201', req('authorisations.create.response-code'), async ({ authorisations }) => {
  const b = await authorisations.begin();
  await expect(b.created).toHaveStatus(201);
});

test(
  'the start-authorisation POST of the consent operations carries scaStatus, authorisationId, psuMessage and the scaStatus link',
  req('authorisations.create.start-response'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    await expect(b.created).toMatchSchema('authorisations/authorisation-start');
  },
);

test(
  'list authorisations contains every authorisation created on the resource',
  req('authorisations.list.contains'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const second = await authorisations.sca.create(b.resourceBasePath, 'authorisations', authorisations.headers());
    await expect(second).toSucceed();
    const list = await authorisations.consents.api.get(`${b.resourceBasePath}/authorisations`, {
      headers: authorisations.headers(),
    });
    await expect(list).toHaveStatus(200);
    await expect(list).toMatchSchema('authorisations/authorisation-list');
    const ids: string[] = list.json().authorisationIds;
    for (const id of [b.authorisationId, second.json().authorisationId]) {
      expect(ids, because(`authorisationIds must contain ${id}`)).toContain(id);
    }
  },
);

test(
  'starting with a decoupled method answers aspsp-sca-approach, scaStatus started, chosenScaMethod and challengeData',
  req('authorisations.start.decoupled'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const method =
      DECOUPLED_PREFERENCE.find((m) => b.methods.some((x) => x.authenticationMethodId === m)) ??
      b.methods[0]?.authenticationMethodId;
    expect(method, because(`scaMethods offers no method: ${b.created.describe()}`)).toBeTruthy();
    const started = await authorisations.sca.start(b.href, method!, authorisations.headers());
    await expect(started).toHaveStatus(200);
    await expect(started).toHaveHeader('aspsp-sca-approach', /^(DECOUPLED|REDIRECT)$/);
    await expect(started).toMatchSchema('authorisations/authorisation-started');
    expect(
      started.json().chosenScaMethod?.authenticationMethodId,
      because('chosenScaMethod is the method chosen'),
    ).toBe(method);
  },
);

test(
  'an authenticationMethodId not among scaMethods is refused and the status stays received',
  req('authorisations.start.unknown-method'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const res = await authorisations.sca.start(b.href, 'no-such-method', authorisations.headers());
    await expect(res, 'an unknown authenticationMethodId').toBeRefused();
    const st = await authorisations.sca.status(b.href, authorisations.headers());
    expect(st.json().scaStatus, because('a refused start leaves the authorisation received')).toBe('received');
  },
);

test(
  'an unknown authenticationMethodId is answered SCA_METHOD_UNKNOWN or FORMAT_ERROR',
  req('authorisations.start.unknown-method-code'),
  async ({ authorisations }) => {
    const b = await authorisations.begin();
    const res = await authorisations.sca.start(b.href, 'no-such-method', authorisations.headers());
    await expect(res).toBeTppError(400, ['SCA_METHOD_UNKNOWN', 'FORMAT_ERROR']);
  },
);

test(
  'update PSU data on a decoupled authorisation answers scatransactionStatus, psuMessage and the scaStatus link',
  req('authorisations.update-psu-data.decoupled'),
  async ({ authorisations }) => {
    const b = await authorisations.begin({ method: 'mbid_same_device' });
    await expect(b.started!).toHaveStatus(200);
    const res = await authorisations.consents.api.put(b.href, { json: {}, headers: authorisations.headers() });
    await expect(res).toHaveStatus(200);
    await expect(res).toMatchSchema('authorisations/update-psu-data-decoupled');
  },
);
