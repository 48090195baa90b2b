import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BgError } from '../errors.js';
import { schemaRef } from '../plugins/validation.js';
import { DIRECTORY } from '../seed/directory.js';

const BASE = '/psd2/aspspinformation/v1';
const route = { api: true, scope: 'aspspinformation' as const, bicFi: false };

const COUNTRY_CODE = schemaRef('directory/country', '#/properties/isoCountryCode');
const CITY_ID = schemaRef('directory/city', '#/properties/cityId');
const FILTERS = {
  querystring: {
    type: 'object',
    properties: {
      isoCountryCodes: { type: 'array', items: COUNTRY_CODE },
      cityIds: { type: 'array', items: CITY_ID },
    },
  },
} as const;
const COUNTRY_FILTER = {
  querystring: { type: 'object', properties: { isoCountryCodes: FILTERS.querystring.properties.isoCountryCodes } },
} as const;
const pathParam = (name: string, schema: object) => ({
  params: { type: 'object', required: [name], properties: { [name]: schema } },
});
const BANK = pathParam('bicFi', schemaRef('common/bicfi'));
const CITY = pathParam('cityId', CITY_ID);
const COUNTRY = pathParam('isoCountryCode', COUNTRY_CODE);

/**
 * Array query parameters may also come comma-separated (`a=1,2`, besides `a=1&a=2`): split into
 * one value each before the query string is validated.
 */
const splitLists = async (req: FastifyRequest) => {
  const q = req.query as Record<string, string | string[] | undefined>;
  for (const name of ['isoCountryCodes', 'cityIds']) {
    const raw = q[name];
    if (raw === undefined) continue;
    q[name] = (Array.isArray(raw) ? raw : [raw])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  }
};

interface Filters {
  Querystring: { isoCountryCodes?: string[]; cityIds?: string[] };
}

/** ASPSP information services (endpoint section A) at the vendor's paths. */
export default async function directoryRoutes(app: FastifyInstance): Promise<void> {
  app.get<Filters>(`${BASE}/aspsps`, { config: route, schema: FILTERS, preValidation: splitLists }, async (req) => {
    const { isoCountryCodes: countries, cityIds: cities } = req.query;
    const banks = DIRECTORY.banks.filter(
      (b) => (!countries || countries.includes(b.country)) && (!cities || cities.includes(b.cityId)),
    );
    return { aspsps: banks.map((b) => ({ bicFi: b.bicFi, name: b.name })) };
  });

  app.get<{ Params: { bicFi: string } }>(`${BASE}/aspsps/:bicFi`, { config: route, schema: BANK }, async (req) => {
    const { bicFi } = req.params;
    const bank = DIRECTORY.banks.find((b) => b.bicFi === bicFi);
    if (!bank) throw new BgError(404, 'RESOURCE_UNKNOWN', `no ASPSP with bicFi ${bicFi}`, 'bicFi');
    const { cityId: _cityId, ...detail } = bank;
    return detail;
  });

  app.get<Filters>(`${BASE}/cities`, { config: route, schema: FILTERS, preValidation: splitLists }, async (req) => {
    const { isoCountryCodes: countries, cityIds: ids } = req.query;
    return {
      cities: DIRECTORY.cities.filter(
        (c) => (!countries || countries.includes(c.isoCountryCode)) && (!ids || ids.includes(c.cityId)),
      ),
    };
  });

  app.get<{ Params: { cityId: string } }>(
    `${BASE}/cities/:cityId`,
    { config: { ...route, paramNames: { cityId: 'city-id' } }, schema: CITY },
    async (req) => {
      const { cityId } = req.params;
      const city = DIRECTORY.cities.find((c) => c.cityId === cityId.toLowerCase());
      if (!city) throw new BgError(404, 'RESOURCE_UNKNOWN', `no city ${cityId}`, 'city-id');
      return city;
    },
  );

  app.get<Filters>(
    `${BASE}/countries`,
    { config: route, schema: COUNTRY_FILTER, preValidation: splitLists },
    async (req) => {
      const countries = req.query.isoCountryCodes;
      return { countries: DIRECTORY.countries.filter((c) => !countries || countries.includes(c.isoCountryCode)) };
    },
  );

  app.get<{ Params: { isoCountryCode: string } }>(
    `${BASE}/countries/:isoCountryCode`,
    { config: route, schema: COUNTRY },
    async (req) => {
      const { isoCountryCode } = req.params;
      const country = DIRECTORY.countries.find((c) => c.isoCountryCode === isoCountryCode);
      if (!country) throw new BgError(404, 'RESOURCE_UNKNOWN', `no country ${isoCountryCode}`, 'isoCountryCode');
      return country;
    },
  );
}
