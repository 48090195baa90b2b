import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BgError, formatError } from '../errors.js';
import { BIC, isUuid } from '../plugins/guard.js';
import { DIRECTORY } from '../seed/directory.js';

const BASE = '/psd2/aspspinformation/v1';
const route = { api: true, scope: 'aspspinformation' as const, bicFi: false };
const COUNTRY = /^[A-Z]{2}$/;

/** An array query parameter: repeated (`a=1&a=2`) or comma-separated (`a=1,2`). */
function arrayParam(
  req: FastifyRequest,
  name: string,
  valid: (v: string) => boolean,
  what: string,
): string[] | undefined {
  const raw = (req.query as Record<string, string | string[] | undefined>)[name];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = values.find((v) => !valid(v));
  if (bad !== undefined) throw formatError(`query ${name}: "${bad}" is not ${what}`, name);
  return values;
}

const countryCodes = (req: FastifyRequest) =>
  arrayParam(req, 'isoCountryCodes', (v) => COUNTRY.test(v), 'a two-letter ISO country code');
const cityIds = (req: FastifyRequest) => arrayParam(req, 'cityIds', isUuid, 'a uuid');

/** ASPSP information services (endpoint section A) at the vendor's paths. */
export default async function directoryRoutes(app: FastifyInstance): Promise<void> {
  app.get(`${BASE}/aspsps`, { config: route }, async (req) => {
    const countries = countryCodes(req);
    const cities = cityIds(req);
    const banks = DIRECTORY.banks.filter(
      (b) => (!countries || countries.includes(b.country)) && (!cities || cities.includes(b.cityId)),
    );
    return { aspsps: banks.map((b) => ({ bicFi: b.bicFi, name: b.name })) };
  });

  app.get<{ Params: { bicFi: string } }>(`${BASE}/aspsps/:bicFi`, { config: route }, async (req) => {
    const { bicFi } = req.params;
    if (!BIC.test(bicFi)) throw formatError(`path bicFi: "${bicFi}" is not a BIC`, 'bicFi');
    const bank = DIRECTORY.banks.find((b) => b.bicFi === bicFi);
    if (!bank) throw new BgError(404, 'RESOURCE_UNKNOWN', `no ASPSP with bicFi ${bicFi}`, 'bicFi');
    const { cityId: _cityId, ...detail } = bank;
    return detail;
  });

  app.get(`${BASE}/cities`, { config: route }, async (req) => {
    const countries = countryCodes(req);
    const ids = cityIds(req);
    return {
      cities: DIRECTORY.cities.filter(
        (c) => (!countries || countries.includes(c.isoCountryCode)) && (!ids || ids.includes(c.cityId)),
      ),
    };
  });

  app.get<{ Params: { cityId: string } }>(`${BASE}/cities/:cityId`, { config: route }, async (req) => {
    const { cityId } = req.params;
    if (!isUuid(cityId)) throw formatError(`path city-id: "${cityId}" is not a uuid`, 'city-id');
    const city = DIRECTORY.cities.find((c) => c.cityId === cityId.toLowerCase());
    if (!city) throw new BgError(404, 'RESOURCE_UNKNOWN', `no city ${cityId}`, 'city-id');
    return city;
  });

  app.get(`${BASE}/countries`, { config: route }, async (req) => {
    const countries = countryCodes(req);
    return { countries: DIRECTORY.countries.filter((c) => !countries || countries.includes(c.isoCountryCode)) };
  });

  app.get<{ Params: { isoCountryCode: string } }>(
    `${BASE}/countries/:isoCountryCode`,
    { config: route },
    async (req) => {
      const { isoCountryCode } = req.params;
      if (!COUNTRY.test(isoCountryCode))
        throw formatError(`path isoCountryCode: "${isoCountryCode}" is not two upper-case letters`, 'isoCountryCode');
      const country = DIRECTORY.countries.find((c) => c.isoCountryCode === isoCountryCode);
      if (!country) throw new BgError(404, 'RESOURCE_UNKNOWN', `no country ${isoCountryCode}`, 'isoCountryCode');
      return country;
    },
  );
}
