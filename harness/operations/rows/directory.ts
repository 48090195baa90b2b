import type { PrepKit, Prepared } from '../types.js';
import { noResource, op } from './common.js';

// A. ASPSP information: "Headers: X-Request-ID (required), Digest, Signature, TPP-Signature-Certificate."

/** A detail of the directory: the first bank, city and country the lists give. */
async function listedEntry(k: PrepKit): Promise<Prepared> {
  const ids = await k.w.directoryIds();
  return { path: k.fill({ bicFi: ids.bicFi, 'city-id': ids.cityId, isoCountryCode: ids.isoCountryCode }) };
}

export const DIRECTORY = (
  [
    ['list-banks', 'List banks', '{aspsps}', 'directory/aspsp-list', 'directory.aspsps.list-shape', noResource],
    ['bank', 'Bank detail', '{aspsps}/{bicFi}', 'directory/aspsp-detail', 'directory.aspsp.detail-shape', listedEntry],
    ['list-cities', 'List cities', '{cities}', 'directory/city-list', 'directory.cities.list-shape', noResource],
    ['city', 'City', '{cities}/{city-id}', 'directory/city', 'directory.city.detail', listedEntry],
    [
      'list-countries',
      'List countries',
      '{countries}',
      'directory/country-list',
      'directory.countries.list-shape',
      noResource,
    ],
    [
      'country',
      'Country',
      '{countries}/{isoCountryCode}',
      'directory/country',
      'directory.country.detail',
      listedEntry,
    ],
  ] as const
).map(([id, name, template, response, control, prepare]) =>
  op({
    id: `directory.${id}`,
    name,
    section: 'A. ASPSP information',
    group: 'directory',
    method: 'GET',
    template,
    features: ['directory'],
    requires: [],
    accepts: ['signature'],
    response,
    control,
    prepare,
  }),
);
