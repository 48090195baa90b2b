import type { AspspEntry, DirectoryClient } from '../../harness/areas/directory.js';
import {
  answerTests,
  because,
  commonOperation,
  expect,
  req,
  test,
  unclaimedOperation,
  operation,
  type Bound,
  type OperationWorld,
} from '../../harness/operations.js';
import type { Target } from '../../harness/config/target.js';
import { SCHEMAS } from '../../schemas/index.js';

// The common rules shown on one operation the profile claims (the directory's list of banks, else
// a consent's, a payment's, a basket's or a direct debit's status: harness/operations/claims.ts,
// commonOperation). The rules of every operation (X-Request-ID, Authorization, X-BicFi) run over
// the operations table: request-id.spec.ts, authorization.spec.ts, bicfi.spec.ts.

/** The common operation, bound to its prerequisites and called once as is; the test is skipped when the profile claims none. */
async function common(operations: OperationWorld, target: Target): Promise<Bound> {
  const o = commonOperation(target);
  test.skip(!o, `not claimed: the profile "${target.profileName}" claims no operation to show the common rules on`);
  const b = await test.step(`prerequisites of ${o!.name}`, () => operations.bind(o!));
  // The valid call once: the positive control of the refusals below (a bank refusing it too proves no rule).
  await b.call();
  return b;
}

/** The profile claims the directory (the checks that read its particular answers). */
const directoryClaimed = (target: Target) => !unclaimedOperation(target.profile, operation('directory.list-banks'));

// Every property name the schemas declare, with the specification's casing (no two differ by case alone).
const names = SCHEMAS.flatMap((schema) => {
  const found: string[] = [];
  JSON.stringify(schema, (k, v) => {
    if (k === 'properties' && v && typeof v === 'object') found.push(...Object.keys(v));
    return v;
  });
  return found;
});
const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));

const offCase = (value: unknown, path = '$'): string[] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => offCase(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const spec = byLower.get(k.toLowerCase());
    return [
      ...(spec && spec !== k ? [`${path}.${k} (the specification's name is ${spec})`] : []),
      ...offCase(v, `${path}.${k}`),
    ];
  });
};

test.describe('X-Request-ID', () => {
  test(
    'a missing X-Request-ID is a FORMAT_ERROR',
    req('headers.x-request-id.required-code'),
    async ({ operations, target }) => {
      const res = await (await common(operations, target)).call({ headers: { 'X-Request-ID': null } });
      await expect(res).toBeTppError(400, 'FORMAT_ERROR');
    },
  );

  test(
    'every answer echoes the X-Request-ID, errors included',
    req('headers.x-request-id.echo'),
    async ({ operations, target, directory }) => {
      const b = await common(operations, target);
      await expect(await b.call()).toEchoRequestId();
      await expect(await b.call({ noAuth: true })).toEchoRequestId();
      if (directoryClaimed(target)) {
        await expect(await directory.bank('ZZZZZZ2Z')).toEchoRequestId();
        await expect(await directory.listCities({ cityIds: ['not-a-uuid'] })).toEchoRequestId();
      }
    },
  );
});

test.describe('Authorization', () => {
  const withoutAuthorization = (b: Bound) => b.call({ noAuth: true });
  const withUnknownToken = (b: Bound) =>
    b.call({ noAuth: true, headers: { Authorization: 'Bearer obg-conformance-never-issued-token-0000' } });

  test(
    'a call without Authorization is answered 401',
    req('headers.authorization.required-code'),
    async ({ operations, target }) => {
      await expect(await withoutAuthorization(await common(operations, target))).toBeRefused(401);
    },
  );

  test(
    'a bearer token the server never issued is answered 401',
    req('headers.authorization.invalid-token-code'),
    async ({ operations, target }) => {
      await expect(await withUnknownToken(await common(operations, target))).toBeRefused(401);
    },
  );

  test('a token of another API scope is refused', req('headers.authorization.scope'), async ({ directory, target }) => {
    test.skip(
      !directoryClaimed(target),
      'not claimed: the rule is shown on the directory, which the profile does not claim',
    );
    const res = await directory.api.get(directory.api.target.profile.paths.aspsps!, { scope: 'accountinformation' });
    await expect(res).toHaveStatus([401, 403]);
  });
});

test.describe('Error bodies', () => {
  /** The API's own error answers (the bearer-token layer's 401 aside: see below). */
  const provokeApi = async (operations: OperationWorld, target: Target, directory: DirectoryClient) => {
    const b = await common(operations, target);
    return [
      await b.call({ headers: { 'X-Request-ID': null } }),
      ...(directoryClaimed(target) ? [await directory.bank('essesess'), await directory.bank('ZZZZZZ2Z')] : []),
    ];
  };
  // A bank that takes no authentication (authentication "none") answers a call without it: no refusal there.
  const provoke = async (operations: OperationWorld, target: Target, directory: DirectoryClient) => [
    ...(await provokeApi(operations, target, directory)),
    ...(target.profile.authentication === 'none'
      ? []
      : [await (await common(operations, target)).call({ noAuth: true })]),
  ];

  test(
    'error answers carry tppMessages of category, code, path and text',
    req('headers.errors.tpp-messages'),
    async ({ operations, target, directory }) => {
      for (const res of await provokeApi(operations, target, directory)) {
        await expect(res).toBeRefused();
        await expect(res).toBeTppError(res.status);
      }
    },
  );

  test(
    'the refusal of a call without Authorization carries tppMessages too',
    req('headers.errors.tpp-messages-unauthorised'),
    async ({ operations, target }) => {
      // The bearer-token layer's answer (RFC 6750): a bank may give it as plain text.
      const res = await (await common(operations, target)).call({ noAuth: true });
      await expect(res, 'a call without Authorization').toBeRefused();
      await expect(res, 'a call without Authorization').toBeTppError(res.status);
    },
  );

  test(
    'the category of an error message is ERROR',
    req('headers.errors.tpp-message-category'),
    async ({ operations, target, directory }) => {
      for (const res of await provoke(operations, target, directory)) {
        // A body that is not JSON (the bearer-token layer's plain-text 401) carries no category.
        const body = res.body && typeof res.body === 'object' ? (res.body as { tppMessages?: unknown }) : {};
        const messages = Array.isArray(body.tppMessages) ? (body.tppMessages as { category?: string }[]) : [];
        const categories = messages.map((m) => m?.category);
        expect(categories, because(`tppMessages of ${res.label} must have category ERROR`)).toContain('ERROR');
      }
    },
  );
});

test.describe('Names', () => {
  test(
    'query parameters are recognised only under their exact name',
    req('headers.parameters.case-sensitive'),
    async ({ directory, target }) => {
      // The rule is shown on the directory's isoCountryCodes filter; without the directory no parameter of a claimed operation filters so plainly.
      test.skip(
        !directoryClaimed(target),
        'not claimed: the rule is shown on the directory, which the profile does not claim',
      );
      const all = await directory.banks();
      const snapshot = await directory.snapshot();
      const code = snapshot.countries.find((c) => {
        const n = snapshot.banks.filter((b) => b.country === c.isoCountryCode || b.country === c.name).length;
        return n > 0 && n < all.length;
      })?.isoCountryCode;
      test.skip(!code, 'no country holds some but not all banks');
      const filtered = (await directory.listBanks({ isoCountryCodes: [code!] })).json<{ aspsps: AspspEntry[] }>()
        .aspsps;
      const res = await directory.listBanks({ isocountrycodes: [code!] } as never);
      // Rejecting the unknown parameter keeps the rule too: a refusal, beside the same list read unfiltered.
      if (res.status >= 400) {
        await expect(res, `isocountrycodes=${code} (lower case), an unknown parameter`).toBeRefused();
        return;
      }
      const got = res
        .json<{ aspsps: AspspEntry[] }>()
        .aspsps.map((b) => b.bicFi)
        .sort();
      expect(got, because(`isocountrycodes=${code} (lower case) must not filter as isoCountryCodes does`)).not.toEqual(
        filtered.map((b) => b.bicFi).sort(),
      );
    },
  );

  test(
    'JSON answers carry Content-Type application/json, errors included',
    req('headers.content-type.json'),
    async ({ operations, target }) => {
      const b = await common(operations, target);
      for (const res of [await b.call(), await b.call({ noAuth: true })]) {
        await expect(res).toHaveHeader('Content-Type', /^application\/json\b/);
      }
    },
  );
});

// The answers of every claimed operation (one valid call each), area by area: names under the
// specification's casing, and a body that is JSON labelled application/json.
for (const t of answerTests({
  requirement: 'headers.fields.case-sensitive',
  title: 'answers with fields under the exact names of the specification',
  // Whatever the answer (a refused call answers an error body, judged alike): an operation's success is judged elsewhere.
  check: async (res, b) => {
    if (res.text.trim() && res.isJson)
      expect.soft(offCase(res.body), because(`${b.label}: ${res.label}: fields under another casing`)).toEqual([]);
  },
}))
  test(t.title, t.details, t.body);

for (const t of answerTests({
  requirement: 'headers.content-type.json',
  title: 'answers JSON labelled application/json',
  check: async (res, b) => {
    // An operation with a response schema answers a body; any other answers JSON where it answers a body.
    if (b.op.response || res.text.trim()) {
      await expect.soft(res, b.label).toHaveHeader('Content-Type', /^application\/json\b/);
      expect
        .soft(res.isJson, because(`${b.label}: ${res.label}: the body must be JSON; got ${res.describe()}`))
        .toBe(true);
    }
  },
}))
  test(t.title, t.details, t.body);

test(
  'the directory operations answer without X-BicFi',
  req('headers.x-bicfi.directory-optional'),
  async ({ directory }) => {
    const banks = await directory.listBanks();
    await expect(banks).toSucceed();
    const bic = banks.json<{ aspsps: AspspEntry[] }>().aspsps[0].bicFi;
    const cities = await directory.listCities();
    await expect(cities).toSucceed();
    const cityId = cities.json<{ cities: { cityId: string }[] }>().cities[0].cityId;
    const countries = await directory.listCountries();
    await expect(countries).toSucceed();
    const code = countries.json<{ countries: { isoCountryCode: string }[] }>().countries[0].isoCountryCode;
    for (const res of [await directory.bank(bic), await directory.city(cityId), await directory.country(code)]) {
      await expect(res).toSucceed();
      expect(
        Object.keys(res.exchange.requestHeaders).map((h) => h.toLowerCase()),
        because('the directory client must not send X-BicFi'),
      ).not.toContain('x-bicfi');
    }
  },
);
