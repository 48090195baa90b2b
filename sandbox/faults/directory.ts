import { BgError, errorBody } from '../errors.js';
import { DIRECTORY as SEED } from '../seed/directory.js';
import { type Fault } from './fault.js';
import { asUuid, beforeHandler, rewriteJson } from '../hooks.js';

const LIST_BANKS = /\/aspspinformation\/v1\/aspsps$/;
const BANK = /\/aspsps\/:bicFi$/;
const LIST_CITIES = /\/aspspinformation\/v1\/cities$/;
const CITY = /\/cities\/:cityId$/;
const LIST_COUNTRIES = /\/aspspinformation\/v1\/countries$/;
const COUNTRY = /\/countries\/:isoCountryCode$/;

type Query = Record<string, unknown>;
const dropQuery = (name: string) => (req: { query: unknown }) => {
  delete (req.query as Query)[name];
};

const faults: Fault[] = [
  {
    id: 'directory.list-name-dropped',
    description: 'bank list entries lose their name',
    breaks: ['directory.aspsps.list-shape', 'directory.aspsp.detail-matches-list'],
    install: (app) =>
      rewriteJson(app, { route: LIST_BANKS }, (b: { aspsps: Record<string, unknown>[] }) =>
        b.aspsps.forEach((e) => delete e.name),
      ),
  },
  {
    id: 'directory.city-list-name-dropped',
    description:
      'city list entries lose their name (the city detail keeps it); the cityIds filter of List banks can no longer be judged (skipped with its reason)',
    breaks: ['directory.cities.list-shape'],
    install: (app) =>
      rewriteJson(app, { route: LIST_CITIES }, (b: { cities: Record<string, unknown>[] }) =>
        b.cities.forEach((e) => delete e.name),
      ),
  },
  {
    id: 'directory.country-filter-ignored',
    description: 'isoCountryCodes on List banks is ignored (and so never validated)',
    breaks: [
      'directory.aspsps.filter-country',
      'directory.aspsps.filter-country-array',
      'directory.aspsps.filter-country-format',
    ],
    install: (app) => beforeHandler(app, { route: LIST_BANKS }, dropQuery('isoCountryCodes')),
  },
  {
    id: 'directory.country-filter-first-value-only',
    description: 'of several isoCountryCodes only the first is used',
    breaks: ['directory.aspsps.filter-country-array'],
    install: (app) =>
      beforeHandler(app, { route: LIST_BANKS }, (req) => {
        const q = req.query as Query;
        if (Array.isArray(q.isoCountryCodes)) q.isoCountryCodes = q.isoCountryCodes[0];
      }),
  },
  {
    id: 'directory.city-filter-drops-a-bank',
    description: 'cityIds on List banks leaves out the last matching bank',
    breaks: ['directory.aspsps.filter-city'],
    install: (app) =>
      rewriteJson(app, { route: LIST_BANKS }, (b: { aspsps: unknown[] }, req) => {
        if ((req.query as Query).cityIds && b.aspsps.length > 0) b.aspsps.pop();
      }),
  },
  {
    id: 'directory.city-filter-unvalidated',
    description: 'a cityIds value that is not a uuid is answered with an empty list',
    breaks: [
      'directory.aspsps.filter-city-format',
      'directory.aspsps.filter-city-format-code',
      'directory.city.id-canonical',
    ],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (!LIST_BANKS.test(req.routeOptions.url ?? '')) return;
        const ids = (req.query as Query).cityIds;
        const values = (Array.isArray(ids) ? ids : ids ? [ids] : []) as string[];
        if (values.some((v) => !/^[0-9a-f-]{36}$/i.test(v))) await reply.send({ aspsps: [] });
      }),
  },
  {
    id: 'directory.detail-products-as-string',
    description: 'globalPaymentProducts comes as one comma-separated string',
    breaks: ['directory.aspsp.detail-shape', 'directory.aspsp.detail-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BANK }, (b: { globalPaymentProducts?: string[] | string }) => {
        if (Array.isArray(b.globalPaymentProducts)) b.globalPaymentProducts = b.globalPaymentProducts.join(',');
      }),
  },
  {
    id: 'directory.detail-phone-dropped',
    description: 'bank detail leaves out phone',
    breaks: ['directory.aspsp.detail-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BANK }, (b: Record<string, unknown>) => void delete b.phone),
  },
  {
    id: 'directory.detail-name-differs',
    description: 'bank detail gives another name than the list',
    breaks: ['directory.aspsp.detail-matches-list'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BANK }, (b: { name: string }) => void (b.name = `${b.name} (Group)`)),
  },
  {
    id: 'directory.bicfi-case-insensitive',
    description: 'a lower-case bicFi is served the bank instead of being rejected',
    breaks: ['directory.aspsp.bicfi-format', 'directory.aspsp.bicfi-format-code'],
    install: (app) =>
      beforeHandler(app, { route: BANK }, (req) => {
        const p = req.params as { bicFi: string };
        if (p.bicFi === p.bicFi.toLowerCase()) p.bicFi = p.bicFi.toUpperCase();
      }),
  },
  {
    id: 'directory.unknown-bank-empty-200',
    description: 'an unknown bicFi is answered 200 with an empty object',
    breaks: ['directory.aspsp.unknown', 'directory.aspsp.unknown-code'],
    install: (app) =>
      app.addHook('preHandler', async (req, reply) => {
        if (!BANK.test(req.routeOptions.url ?? '')) return;
        const bic = (req.params as { bicFi: string }).bicFi;
        if (/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic) && !SEED.banks.some((b) => b.bicFi === bic))
          await reply.send({});
      }),
  },
  {
    id: 'directory.unknown-bank-format-error',
    description: 'an unknown bicFi is answered 400 FORMAT_ERROR instead of 404 RESOURCE_UNKNOWN',
    breaks: ['directory.aspsp.unknown-code'],
    install: (app) =>
      rewriteJson(app, { route: BANK, status: 404 }, (_b, _req, reply) => {
        reply.status(400);
        return errorBody(new BgError(400, 'FORMAT_ERROR', 'bad bicFi', 'bicFi'));
      }),
  },
  {
    id: 'directory.cities-country-filter-ignored',
    description: 'isoCountryCodes on List cities is ignored',
    breaks: ['directory.cities.filter-country'],
    install: (app) => beforeHandler(app, { route: LIST_CITIES }, dropQuery('isoCountryCodes')),
  },
  {
    id: 'directory.cities-id-filter-ignored',
    description: 'cityIds on List cities is ignored',
    breaks: ['directory.cities.filter-city'],
    install: (app) => beforeHandler(app, { route: LIST_CITIES }, dropQuery('cityIds')),
  },
  {
    id: 'directory.city-detail-differs',
    description: 'City by uuid spells the name in upper case',
    breaks: ['directory.city.detail'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: CITY }, (c: { name: string }) => void (c.name = c.name.toUpperCase())),
  },
  {
    id: 'directory.city-id-unvalidated',
    description: 'a city-id that is not a uuid is answered with the first city',
    breaks: ['directory.city.id-format', 'directory.city.id-canonical'],
    install: (app) =>
      beforeHandler(app, { route: CITY }, (req) => {
        const p = req.params as { cityId: string };
        if (!/^[0-9a-f-]{36}$/i.test(p.cityId)) p.cityId = SEED.cities[0].cityId;
      }),
  },
  {
    id: 'directory.city-id-read-as-uuid-type',
    description:
      'City has no format check and reads city-id as a uuid type would (hyphens optional, braces allowed), so malformed forms of a listed id find the city',
    breaks: ['directory.city.id-canonical'],
    install: (app) =>
      beforeHandler(app, { route: CITY }, (req) => {
        const p = req.params as { cityId: string };
        p.cityId = asUuid(p.cityId);
      }),
  },
  {
    id: 'directory.city-unknown-forbidden',
    description: 'an unknown city is answered 403 instead of 404 RESOURCE_UNKNOWN',
    breaks: ['directory.city.unknown'],
    install: (app) => rewriteJson(app, { route: CITY, status: 404 }, (_b, _req, reply) => void reply.status(403)),
  },
  {
    id: 'directory.country-list-id-number',
    description: 'List countries gives id as a number',
    breaks: ['directory.countries.list-shape', 'directory.country.detail'],
    install: (app) =>
      rewriteJson(app, { route: LIST_COUNTRIES }, (b: { countries: { id: unknown }[] }) =>
        b.countries.forEach((c) => (c.id = Number(c.id))),
      ),
  },
  {
    id: 'directory.countries-filter-ignored',
    description: 'isoCountryCodes on List countries is ignored',
    breaks: ['directory.countries.filter-country'],
    install: (app) => beforeHandler(app, { route: LIST_COUNTRIES }, dropQuery('isoCountryCodes')),
  },
  {
    id: 'directory.country-code-three-letters',
    description: 'a three-letter country code is answered with the country of its first two letters',
    breaks: ['directory.country.code-format'],
    install: (app) =>
      beforeHandler(app, { route: COUNTRY }, (req) => {
        const p = req.params as { isoCountryCode: string };
        if (/^[A-Z]{3}$/.test(p.isoCountryCode)) p.isoCountryCode = p.isoCountryCode.slice(0, 2);
      }),
  },
  {
    id: 'directory.country-unknown-empty-200',
    description: 'an unknown country code is answered 200 with an empty object',
    breaks: ['directory.country.unknown'],
    install: (app) => rewriteJson(app, { route: COUNTRY, status: 404 }, (_b, _req, reply) => (reply.status(200), {})),
  },
  {
    id: 'directory.country-missing-from-list',
    description: 'List countries leaves out a country that cities and banks name (NL)',
    breaks: ['directory.aspsps.countries-consistent'],
    install: (app) =>
      rewriteJson(app, { route: LIST_COUNTRIES }, (b: { countries: { isoCountryCode: string }[] }) => {
        b.countries = b.countries.filter((c) => c.isoCountryCode !== 'NL');
      }),
  },
];

export default faults;
