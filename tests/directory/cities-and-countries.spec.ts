import { notJudged } from '../../harness/test.js';
import { randomUUID } from 'node:crypto';
import { disagreements } from '../../harness/values/json.js';
import { because, expect, req, test, type City, type Country } from '../../harness/areas/directory.js';

// The fields the specification names for a City and a Country: a detail and its list entry agree on
// those both carry (a bank may add fields of its own, "other fields: not shown").
const CITY_FIELDS = ['cityId', 'name', 'isoCountryCode'] as const;
const COUNTRY_FIELDS = ['id', 'isoCountryCode', 'name'] as const;

const ids = (list: City[]) => list.map((c) => c.cityId).sort();

test.describe('Cities', () => {
  test(
    'List cities answers a cities array of City objects',
    req('directory.cities.list-shape'),
    async ({ directory }) => {
      const res = await directory.listCities();
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('directory/city-list');
      // An empty list is a list of the shape (the row gives no minimum): the entries' checks are then not judged.
    },
  );

  test(
    'isoCountryCodes returns exactly the cities of that country',
    req('directory.cities.filter-country'),
    async ({ directory }) => {
      const all = await directory.cities();
      for (const code of [...new Set(all.map((c) => c.isoCountryCode))]) {
        const res = await directory.listCities({ isoCountryCodes: [code] });
        await expect(res).toSucceed();
        expect(
          ids(res.json<{ cities: City[] }>().cities),
          because(`isoCountryCodes=${code} must return exactly the cities of ${code}`),
        ).toEqual(ids(all.filter((c) => c.isoCountryCode === code)));
      }
    },
  );

  test('cityIds returns exactly the cities named', req('directory.cities.filter-city'), async ({ directory }) => {
    const all = await directory.cities();
    const chosen = all.filter((_, i) => i % 2 === 0).slice(0, 3);
    const res = await directory.listCities({ cityIds: chosen.map((c) => c.cityId) });
    await expect(res).toSucceed();
    expect(ids(res.json<{ cities: City[] }>().cities), because('cityIds must return exactly the cities named')).toEqual(
      ids(chosen),
    );
  });

  test('City by uuid agrees with its list entry', req('directory.city.detail'), async ({ directory }) => {
    const all = await directory.cities();
    if (!all.length) notJudged('List cities answered no city: there is none to read');
    for (const city of all) {
      const res = await directory.city(city.cityId);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('directory/city');
      expect(
        disagreements(res.json(), city, CITY_FIELDS),
        because(`City ${city.cityId} must agree with its entry in List cities on cityId, name and isoCountryCode`),
      ).toEqual([]);
    }
  });

  test('a city-id that is no uuid is rejected', req('directory.city.id-format'), async ({ directory }) => {
    // A word, and the city's name, which only a lookup by name finds.
    const city = await directory.first('cities');
    // The name as the list gives it, or else as the city's detail does (a list may leave it out).
    const name = city.name ?? (await directory.city(city.cityId)).json<Partial<City>>().name;
    const forms = ['not-a-uuid'];
    if (typeof name === 'string' && name) forms.push(name.toLowerCase());
    for (const bad of forms) {
      await expect.soft(await directory.city(bad), `City "${bad}"`).toBeRefused();
    }
  });

  test(
    "a listed city's id without hyphens or in braces is refused, as city-id and as cityIds value",
    req('directory.city.id-canonical'),
    async ({ directory }) => {
      // Forms of a listed city's id that a lookup by a uuid type would still find: only a format check refuses them.
      const city = await directory.first('cities');
      for (const bad of [city.cityId.replace(/-/g, ''), `{${city.cityId}}`]) {
        await expect.soft(await directory.city(bad), `City "${bad}"`).toBeRefused();
        await expect.soft(await directory.listBanks({ cityIds: [bad] }), `List banks, cityIds "${bad}"`).toBeRefused();
      }
    },
  );

  test('a uuid of no city is RESOURCE_UNKNOWN', req('directory.city.unknown'), async ({ directory }) => {
    await expect(await directory.city(randomUUID())).toBeTppError(404, 'RESOURCE_UNKNOWN');
  });
});

test.describe('Countries', () => {
  test(
    'List countries answers a countries array of Country objects',
    req('directory.countries.list-shape'),
    async ({ directory }) => {
      const res = await directory.listCountries();
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('directory/country-list');
      // An empty list is a list of the shape (the row gives no minimum): the entries' checks are then not judged.
    },
  );

  test(
    'isoCountryCodes returns exactly the countries named',
    req('directory.countries.filter-country'),
    async ({ directory }) => {
      const all = await directory.countries();
      const chosen = all
        .slice(0, 2)
        .map((c) => c.isoCountryCode)
        .sort();
      const res = await directory.listCountries({ isoCountryCodes: chosen });
      await expect(res).toSucceed();
      expect(
        res
          .json<{ countries: Country[] }>()
          .countries.map((c) => c.isoCountryCode)
          .sort(),
        because(`isoCountryCodes=${chosen.join(',')} must return exactly those countries`),
      ).toEqual(chosen);
    },
  );

  test('Country by code agrees with its list entry', req('directory.country.detail'), async ({ directory }) => {
    const all = await directory.countries();
    if (!all.length) notJudged('List countries answered no country: there is none to read');
    for (const country of all) {
      const res = await directory.country(country.isoCountryCode);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('directory/country');
      expect(
        disagreements(res.json(), country, COUNTRY_FIELDS),
        because(
          `Country ${country.isoCountryCode} must agree with its entry in List countries on id, isoCountryCode and name`,
        ),
      ).toEqual([]);
    }
  });

  test(
    'an isoCountryCode that is not two letters is rejected',
    req('directory.country.code-format'),
    async ({ directory }) => {
      const first = await directory.first('countries');
      // Lower case is still two letters: the specification's words do not refuse it.
      for (const bad of [`${first.isoCountryCode}E`, first.isoCountryCode.slice(0, 1)]) {
        await expect.soft(await directory.country(bad), `Country "${bad}"`).toBeRefused();
      }
    },
  );

  test('a code of no listed country is RESOURCE_UNKNOWN', req('directory.country.unknown'), async ({ directory }) => {
    await expect(await directory.country('ZZ')).toBeTppError(404, 'RESOURCE_UNKNOWN');
  });
});
