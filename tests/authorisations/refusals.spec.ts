import { randomUUID } from 'node:crypto';
import {
  because,
  consentRequest,
  expect,
  offeredMethod,
  req,
  test,
  type AuthorisationsClient,
} from '../../harness/areas/authorisations.js';
import { COMBINATIONS, label, unclaimed, type Combination } from '../../harness/areas/payments.js';

/**
 * The authorisations path of an unknown consent and, where the profile claims them, of an unknown
 * payment of every claimed service and product, basket ("The operations use
 * {base_url}/<resourceBasePath> for consent, payment or basket", section F) and the cancellation
 * authorisations of an unknown payment of every product whose cancellation needs one; `list`: the
 * specification lists its authorisations (a basket's list is not an operation of section E).
 */
function unknownResources(a: AuthorisationsClient): {
  kind: 'consent' | 'payment' | 'cancellation' | 'basket';
  what: string;
  path: string;
  sub: string;
  scope: string;
  list: boolean;
}[] {
  const t = a.target;
  const out: ReturnType<typeof unknownResources> = [
    {
      kind: 'consent',
      what: 'consent',
      path: a.consents.basePath(randomUUID()),
      sub: 'authorisations',
      scope: 'accountinformation',
      list: true,
    },
  ];
  if (!t.profile.features.includes('payments')) return out;
  const base = t.profile.paths.payments;
  const claimed = COMBINATIONS.filter((c) => !unclaimed(t, c));
  const cancellable = t.profile.features.includes('payments.cancellation-authorisation')
    ? claimed.filter((c) => t.profile.payments.cancellationAuthorisation.includes(c.product))
    : [];
  const payment = (c: Combination) => ({
    path: `${base}/${c.service}/${c.product}/${randomUUID()}`,
    scope: 'paymentinitiation',
    list: true,
  });
  for (const c of claimed)
    out.push({ kind: 'payment', what: `payment (${label(c)})`, ...payment(c), sub: 'authorisations' });
  for (const c of cancellable)
    out.push({
      kind: 'cancellation',
      what: `payment (${label(c)}, its cancellation authorisations)`,
      ...payment(c),
      sub: 'cancellation-authorisations',
    });
  if (claimed.length && t.profile.features.includes('signing-baskets'))
    out.push({
      kind: 'basket',
      what: 'signing basket',
      path: `${t.profile.paths.signingBaskets}/${randomUUID()}`,
      sub: 'authorisations',
      scope: 'paymentinitiation',
      list: false,
    });
  return out;
}

test(
  'create authorisation on an unknown consent, payment or basket, and a cancellation authorisation on an unknown payment, is refused',
  req('authorisations.create.unknown-resource'),
  async ({ authorisations }) => {
    const api = authorisations.consents.api;
    for (const u of unknownResources(authorisations)) {
      const res = await api.post(`${u.path}/${u.sub}`, { headers: authorisations.headers(), scope: u.scope });
      await expect(res, because(`create authorisation on an unknown ${u.what}`)).toBeRefused();
    }
  },
);

test(
  'create and list authorisations on an unknown consent or payment answer 403 or 404 CONSENT_UNKNOWN or RESOURCE_UNKNOWN',
  req('authorisations.unknown-resource.code'),
  async ({ authorisations }) => {
    const api = authorisations.consents.api;
    for (const u of unknownResources(authorisations).filter((x) => x.kind === 'consent' || x.kind === 'payment')) {
      const opts = { headers: authorisations.headers(), scope: u.scope };
      for (const [what, res] of [
        ['create', await api.post(`${u.path}/authorisations`, opts)],
        ['list', await api.get(`${u.path}/authorisations`, opts)],
      ] as const) {
        await expect(res, because(`${what} authorisations on an unknown ${u.what}`)).toBeTppError(
          [403, 404],
          ['CONSENT_UNKNOWN', 'RESOURCE_UNKNOWN'],
        );
      }
    }
  },
);

test(
  'create authorisation on a deleted or a rejected consent is refused',
  req('authorisations.create.final-resource'),
  async ({ authorisations }) => {
    const consents = authorisations.consents;
    const deleted = await consents.createdForStep();
    const deletedId = deleted.json<{ consentId: string }>().consentId;
    await expect(await consents.delete(deletedId), because('delete the consent')).toSucceed();
    const onDeleted = await authorisations.sca.create(
      consents.basePath(deletedId),
      'authorisations',
      authorisations.headers(),
    );
    await expect(
      onDeleted,
      because('create authorisation on a consent the TPP deleted (terminatedByTpp)'),
    ).toBeRefused();

    const failing = authorisations.target.profile.sca?.failingPsuId;
    if (!failing) return;
    const psu = { 'PSU-ID': failing };
    const { consentId, sca } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      headers: psu,
      sca: { headers: { ...consents.psuHeaders(), ...psu } },
    });
    expect(sca.scaStatus, because(`the SCA of PSU ${failing} fails`)).toBe('failed');
    const onRejected = await authorisations.sca.create(
      consents.basePath(consentId),
      'authorisations',
      authorisations.headers(psu),
    );
    await expect(onRejected, because('create authorisation on a consent rejected after a failed SCA')).toBeRefused();
  },
);

test(
  'another TPP can neither read nor start an authorisation',
  req('authorisations.ownership.other-tpp'),
  async ({ authorisations, secondTpp }) => {
    const other = secondTpp(authorisations.consents.api);
    const b = await authorisations.begin();
    const headers = authorisations.headers();
    const read = await other.get(b.href, { headers });
    await expect(read, because("another TPP's read of the SCA status")).toBeRefused();
    expect(
      (read.body as { scaStatus?: unknown } | undefined)?.scaStatus,
      because("another TPP's read shows no scaStatus"),
    ).toBeUndefined();
    const method = await offeredMethod(
      b,
      (methods) => (methods.find((m) => m.authenticationMethodId !== 'mbid') ?? methods[0])?.authenticationMethodId,
      "another TPP's start",
    );
    const start = await other.put(b.href, { json: { authenticationMethodId: method }, headers });
    await expect(start, because("another TPP's start of the authorisation")).toBeRefused();
    const own = await authorisations.sca.status(b.href, headers);
    await expect(own).toSucceed();
    expect(
      own.json<{ scaStatus?: string }>().scaStatus,
      because("the authorisation after another TPP's calls on it: still received"),
    ).toBe('received');
  },
);
