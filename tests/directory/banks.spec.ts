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

test.describe('List banks', () => {
  test(
    'answers an aspsps array of banks with bicFi and name',
    req('directory.aspsps.list-shape'),
    async ({ directory }) => {
      const res = await directory.listBanks();
      await expect(res).toHaveStatus(200);
      await expect(res).toMatchSchema('directory/aspsp-list');
      expect(res.json().aspsps.length, because('the bank list should not be empty')).toBeGreaterThan(0);
    },
  );

  test(
    'isoCountryCodes returns exactly the banks of that country',
    req('directory.aspsps.filter-country'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const codes = [...new Set(all.banks.map((b) => countryCodeOf(b, all.countries)).filter(Boolean))] as string[];
      expect(
        codes.length,
        because('no bank detail names a country of List countries, so the filter cannot be judged'),
      ).toBeGreaterThan(0);
      for (const code of codes) {
        const res = await directory.listBanks({ isoCountryCodes: [code] });
        await expect(res).toHaveStatus(200);
        const expected = bics(all.banks.filter((b) => countryCodeOf(b, all.countries) === code));
        expect(
          bics(res.json<{ aspsps: AspspEntry[] }>().aspsps),
          because(`isoCountryCodes=${code} must return exactly the banks whose detail country is ${code}`),
        ).toEqual(expected);
      }
    },
  );

  test(
    'isoCountryCodes with several values returns the banks of every country named',
    req('directory.aspsps.filter-country-array'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const codes = [...new Set(all.banks.map((b) => countryCodeOf(b, all.countries)).filter(Boolean))].slice(
        0,
        2,
      ) as string[];
      test.skip(codes.length < 2, 'the target lists banks of fewer than two countries');
      const res = await directory.listBanks({ isoCountryCodes: codes });
      await expect(res).toHaveStatus(200);
      const expected = bics(all.banks.filter((b) => codes.includes(countryCodeOf(b, all.countries) ?? '')));
      expect(
        bics(res.json<{ aspsps: AspspEntry[] }>().aspsps),
        because(`isoCountryCodes=${codes.join('&isoCountryCodes=')} must return the banks of both countries`),
      ).toEqual(expected);
    },
  );

  test(
    'cityIds returns exactly the banks located in that city',
    req('directory.aspsps.filter-city'),
    async ({ directory }) => {
      const all = await directory.snapshot();
      const inCity = (b: AspspDetail, c: { name: string; isoCountryCode: string }) =>
        (b.city ?? '').toLowerCase() === (c.name ?? '').toLowerCase() &&
        countryCodeOf(b, all.countries) === c.isoCountryCode;
      const cities = all.cities.filter((c) => all.banks.some((b) => inCity(b, c)));
      expect(
        cities.length,
        because('no bank detail names a city of List cities, so the filter cannot be judged'),
      ).toBeGreaterThan(0);
      for (const city of cities.slice(0, 4)) {
        const res = await directory.listBanks({ cityIds: [city.cityId] });
        await expect(res).toHaveStatus(200);
        expect(
          bics(res.json<{ aspsps: AspspEntry[] }>().aspsps),
          because(`cityIds=${city.cityId} (${city.name}) must return exactly the banks in ${city.name}`),
        ).toEqual(bics(all.banks.filter((b) => inCity(b, city))));
      }
    },
  );

  test(
    'a cityIds value that is not a uuid is rejected',
    req('directory.aspsps.filter-city-format'),
    async ({ directory }) => {
      // A listed city's id without its hyphens: a lookup by a uuid type would filter by it; only a format check refuses it.
      const [city] = (await directory.listCities()).json<{ cities: { cityId: string }[] }>().cities;
      for (const bad of ['not-a-uuid', city.cityId.replace(/-/g, '')]) {
        const res = await directory.listBanks({ cityIds: [bad] });
        await expect.soft(res, `cityIds "${bad}"`).toHaveStatus([400, 404, 422]);
      }
    },
  );

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
    const list = await directory.listBanks();
    const first = list.json<{ aspsps?: AspspEntry[] }>().aspsps?.[0];
    expect(first?.bicFi, because(`a listed bank whose detail to read; got ${list.describe()}`)).toEqual(
      expect.any(String),
    );
    const res = await directory.bank(first!.bicFi);
    await expect(res).toHaveStatus(200);
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
      const list = (await directory.listBanks()).json<{ aspsps: AspspEntry[] }>().aspsps;
      for (const entry of list) {
        const res = await directory.bank(entry.bicFi);
        await expect(res).toHaveStatus(200);
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
    const [first] = (await directory.listBanks()).json<{ aspsps: AspspEntry[] }>().aspsps;
    for (const bad of malformed(first.bicFi.slice(0, 8))) {
      await expect.soft(await directory.bank(bad), `Bank detail "${bad}"`).toBeRefused();
    }
  });

  test('a malformed bicFi is a FORMAT_ERROR', req('directory.aspsp.bicfi-format-code'), async ({ directory }) => {
    const [first] = (await directory.listBanks()).json<{ aspsps: AspspEntry[] }>().aspsps;
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
