import { notJudged } from '../../harness/test.js';
import {
  because,
  countryCodeOf,
  expect,
  req,
  test,
  type AspspDetail,
  type AspspEntry,
} from '../../harness/areas/directory.js';

const bics = (list: { bicFi: string }[]) => list.map((b) => b.bicFi).sort();

/**
 * How the banks' details link to the lists a filter names (a country code, a city id): `of` gives
 * the key of each bank that links, `codes` the keys some bank links to, `unlinked` the banks whose
 * detail names a country or city the list does not (names that do not match). The words give no
 * link between a bank and a list entry but these names: an unlinked bank is not judged.
 */
interface Linked {
  of: Map<string, string>;
  codes: string[];
  unlinked: string[];
}

function linkCountries(all: { banks: AspspDetail[]; countries: Parameters<typeof countryCodeOf>[1] }): Linked {
  const linked: Linked = { of: new Map(), codes: [], unlinked: [] };
  for (const b of all.banks) {
    const code = countryCodeOf(b, all.countries);
    if (code) linked.of.set(b.bicFi, code);
    else linked.unlinked.push(`${b.bicFi} (country ${JSON.stringify(b.country)})`);
  }
  linked.codes = [...new Set(linked.of.values())];
  return linked;
}

/** What a filter's answer gets wrong among the linked banks: a bank of `keys` left out, or one of another key given. */
function filterMisses(got: string[], linked: Linked, keys: string[]): string[] {
  const have = new Set(got);
  const out: string[] = [];
  for (const [bic, key] of linked.of) {
    if (keys.includes(key) && !have.has(bic)) out.push(`${bic} (${key}) left out`);
    if (!keys.includes(key) && have.has(bic)) out.push(`${bic} (${key}) given`);
  }
  return out.sort();
}

const notLinked = (what: string, unlinked: string[], list: string) =>
  `not judged: no bank detail names a ${what} of ${list} by a name that matches (${unlinked.slice(0, 5).join(', ')}${unlinked.length > 5 ? ', ...' : ''}), so the filter's expected answer is unknown`;
const unjudged = (unlinked: string[]) =>
  unlinked.length ? ` (not judged, their detail names no listed entry: ${unlinked.slice(0, 5).join(', ')})` : '';

test.describe('List banks', () => {
  test(
    'answers an aspsps array of banks with bicFi and name',
    req('directory.aspsps.list-shape'),
    async ({ directory }) => {
      const res = await directory.listBanks();
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('directory/aspsp-list');
      // An empty list is a list of the shape (the row gives no minimum): the entries' checks are then not judged.
    },
  );

  test(
    'isoCountryCodes returns exactly the banks of that country',
    req('directory.aspsps.filter-country'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const linked = linkCountries(all);
      test.skip(linked.codes.length === 0, notLinked('country', linked.unlinked, 'List countries'));
      for (const code of linked.codes) {
        const res = await directory.listBanks({ isoCountryCodes: [code] });
        await expect(res).toSucceed();
        expect(
          filterMisses(bics(res.json<{ aspsps: AspspEntry[] }>().aspsps), linked, [code]),
          because(
            `isoCountryCodes=${code} must return exactly the banks whose detail country is ${code}${unjudged(linked.unlinked)}`,
          ),
        ).toEqual([]);
      }
    },
  );

  test(
    'isoCountryCodes with several values returns the banks of every country named',
    req('directory.aspsps.filter-country-array'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const linked = linkCountries(all);
      test.skip(linked.codes.length === 0, notLinked('country', linked.unlinked, 'List countries'));
      const codes = linked.codes.slice(0, 2);
      test.skip(codes.length < 2, 'the target lists banks of fewer than two countries');
      const res = await directory.listBanks({ isoCountryCodes: codes });
      await expect(res).toSucceed();
      expect(
        filterMisses(bics(res.json<{ aspsps: AspspEntry[] }>().aspsps), linked, codes),
        because(
          `isoCountryCodes=${codes.join('&isoCountryCodes=')} must return the banks of both countries${unjudged(linked.unlinked)}`,
        ),
      ).toEqual([]);
    },
  );

  test(
    'cityIds returns exactly the banks located in that city',
    req('directory.aspsps.filter-city'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      // A bank's detail names its city by name (and its country by code or name): a bank links to a
      // listed city when both match. A bank that links to none cannot be placed, and is not judged.
      const cityOf = (b: AspspDetail) =>
        all.cities.find(
          (c) =>
            (b.city ?? '').trim().toLowerCase() === (c.name ?? '').trim().toLowerCase() &&
            countryCodeOf(b, all.countries) === c.isoCountryCode,
        )?.cityId;
      const linked: Linked = { of: new Map(), codes: [], unlinked: [] };
      for (const b of all.banks) {
        const id = cityOf(b);
        if (id) linked.of.set(b.bicFi, id);
        else linked.unlinked.push(`${b.bicFi} (city ${JSON.stringify(b.city)})`);
      }
      linked.codes = [...new Set(linked.of.values())];
      test.skip(linked.codes.length === 0, notLinked('city', linked.unlinked, 'List cities'));
      for (const city of all.cities.filter((c) => linked.codes.includes(c.cityId)).slice(0, 4)) {
        const res = await directory.listBanks({ cityIds: [city.cityId] });
        await expect(res).toSucceed();
        expect(
          filterMisses(bics(res.json<{ aspsps: AspspEntry[] }>().aspsps), linked, [city.cityId]),
          because(
            `cityIds=${city.cityId} (${city.name}) must return exactly the banks in ${city.name}${unjudged(linked.unlinked)}`,
          ),
        ).toEqual([]);
      }
    },
  );

  for (const [requirement, title, status] of [
    ['directory.aspsps.filter-city-format', 'is rejected', undefined],
    ['directory.aspsps.filter-city-format-code', 'is answered 400', 400],
  ] as const)
    test(`a cityIds value that is no uuid ${title}`, req(requirement), async ({ directory }) => {
      const res = await directory.listBanks({ cityIds: ['not-a-uuid'] });
      await expect(res, 'cityIds "not-a-uuid"').toBeRefused(status);
    });

  test(
    'an isoCountryCodes value that is not two letters is a FORMAT_ERROR',
    req('directory.aspsps.filter-country-format'),
    async ({ directory }) => {
      const res = await directory.listBanks({ isoCountryCodes: ['SWE'] });
      await expect(res).toBeTppError(400, 'FORMAT_ERROR');
    },
  );
});

test.describe('Bank detail', () => {
  test('answers the ASPSP detail with typed fields', req('directory.aspsp.detail-shape'), async ({ directory }) => {
    // A listed bank whose detail to read: a step (blocked by directory.aspsps.list-shape).
    const first = await directory.first('banks');
    const res = await directory.bank(first.bicFi);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('directory/aspsp-detail');
  });

  test(
    'carries every detail field of the specification',
    req('directory.aspsp.detail-complete'),
    async ({ directory }) => {
      const { banks } = await directory.snapshot();
      for (const bank of banks) await expect(bank).toMatchSchema('directory/aspsp-detail-complete');
    },
  );

  test(
    'every listed bicFi resolves to the same bank',
    req('directory.aspsp.detail-matches-list'),
    async ({ directory }) => {
      const list = await directory.banks();
      if (!list.length) notJudged('List banks answered no bank: there is no bicFi to resolve');
      for (const entry of list) {
        const res = await directory.bank(entry.bicFi);
        await expect(res).toSucceed();
        const detail = res.json<AspspDetail>();
        expect(
          { bicFi: detail.bicFi, name: detail.name },
          because(`Bank detail of ${entry.bicFi} must be the listed bank`),
        ).toEqual({ bicFi: entry.bicFi, name: entry.name });
      }
    },
  );

  /** Malformed variants of a listed bank's BIC: a target that bends the pattern would serve them. */
  const malformed = (bic: string) => [
    bic.toLowerCase(),
    `${bic.slice(0, 4)}${bic.slice(4).toLowerCase()}`,
    bic.slice(0, 5),
    `${bic.slice(0, 6)}1${bic.slice(7, 8)}`,
    `${bic.slice(0, 7)}O`,
    `${bic.slice(0, 8)}XY`,
  ];

  test('a malformed bicFi is rejected', req('directory.aspsp.bicfi-format'), async ({ directory }) => {
    const first = await directory.first('banks');
    for (const bad of malformed(first.bicFi.slice(0, 8))) {
      await expect.soft(await directory.bank(bad), `Bank detail "${bad}"`).toBeRefused();
    }
  });

  test('a malformed bicFi is a FORMAT_ERROR', req('directory.aspsp.bicfi-format-code'), async ({ directory }) => {
    const first = await directory.first('banks');
    await expect(await directory.bank(first.bicFi.toLowerCase())).toBeTppError(400, 'FORMAT_ERROR');
  });

  test(
    'a well-formed bicFi of no bank is not answered with a bank',
    req('directory.aspsp.unknown'),
    async ({ directory }) => {
      const res = await directory.bank('ZZZZZZ2Z');
      await expect(res).toHaveStatus([400, 403, 404]);
    },
  );

  test(
    'a well-formed bicFi of no bank is RESOURCE_UNKNOWN',
    req('directory.aspsp.unknown-code'),
    async ({ directory }) => {
      await expect(await directory.bank('ZZZZZZ2Z')).toBeTppError(404, 'RESOURCE_UNKNOWN');
    },
  );

  test(
    'every bank and city names a listed country',
    req('directory.aspsps.countries-consistent'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const codes = new Set(all.countries.map((c) => c.isoCountryCode));
      if (!all.cities.length && !all.banks.length)
        notJudged('the directory lists no bank and no city: nothing names a country');
      for (const city of all.cities)
        expect(
          codes.has(city.isoCountryCode),
          because(`city ${city.name} has isoCountryCode ${city.isoCountryCode}, not in List countries`),
        ).toBe(true);
      for (const bank of all.banks) {
        expect(
          countryCodeOf(bank, all.countries),
          because(
            `bank ${bank.bicFi} has country ${JSON.stringify(bank.country)}, neither a code nor a name of List countries`,
          ),
        ).toBeDefined();
      }
    },
  );
});
