import type { SchemaType } from '../../schemas/index.js';
import { block, requireSuccess } from '../http/broken.js';
import type { ApiClient } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { boxed, notJudged, test as base } from '../test.js';

export { because, expect, req } from '../test.js';

// The bodies, as their schemas (schemas/directory) state them.
export type AspspEntry = SchemaType<'directory/aspsp-list'>['aspsps'][number];
export type AspspDetail = SchemaType<'directory/aspsp-detail'>;
export type City = SchemaType<'directory/city'>;
export type Country = SchemaType<'directory/country'>;

export interface DirectoryQuery {
  isoCountryCodes?: string[];
  cityIds?: string[];
}

/** ASPSP information services (endpoint section A) at the profile's paths, scope aspspinformation. */
export class DirectoryClient {
  constructor(readonly api: ApiClient) {}

  /** The directory's paths; a profile that gives none claims no directory (loadProfile insists where it does). */
  private get paths(): { aspsps: string; cities: string; countries: string } {
    const { aspsps, cities, countries } = this.api.target.profile.paths;
    if (!aspsps || !cities || !countries) {
      test.skip(true, `not claimed: the profile "${this.api.target.profileName}" gives no directory paths`);
      throw new Error('unreachable: skipped');
    }
    return { aspsps, cities, countries };
  }

  listBanks(query: DirectoryQuery & Record<string, string[] | undefined> = {}): Promise<ApiResponse> {
    return this.api.get(this.paths.aspsps, { query });
  }
  bank(bicFi: string): Promise<ApiResponse> {
    return this.api.get(`${this.paths.aspsps}/${encodeURIComponent(bicFi)}`);
  }
  listCities(query: DirectoryQuery = {}): Promise<ApiResponse> {
    return this.api.get(this.paths.cities, { query: { ...query } });
  }
  city(cityId: string): Promise<ApiResponse> {
    return this.api.get(`${this.paths.cities}/${encodeURIComponent(cityId)}`);
  }
  listCountries(query: Pick<DirectoryQuery, 'isoCountryCodes'> = {}): Promise<ApiResponse> {
    return this.api.get(this.paths.countries, { query: { ...query } });
  }
  country(code: string): Promise<ApiResponse> {
    return this.api.get(`${this.paths.countries}/${encodeURIComponent(code)}`);
  }

  /**
   * A list other checks build on: a 2xx with the array, else the check is blocked by the
   * requirement that judges the list (never a TypeError on a refused answer).
   */
  private async listed<T>(res: ApiResponse, field: string, by: string, step: string): Promise<T[]> {
    requireSuccess(res, by, step);
    let list: unknown;
    try {
      list = res.json<Record<string, unknown>>()[field];
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list)) block(by, step, `expected a ${field} array; got ${res.describe()}`);
    return list as T[];
  }
  /** The banks listed, as a step (blocked by directory.aspsps.list-shape). */
  async banks(): Promise<AspspEntry[]> {
    return this.listed(await this.listBanks(), 'aspsps', 'directory.aspsps.list-shape', 'list the banks');
  }
  /** The cities listed, as a step (blocked by directory.cities.list-shape). */
  async cities(): Promise<City[]> {
    return this.listed(await this.listCities(), 'cities', 'directory.cities.list-shape', 'list the cities');
  }
  /** The countries listed, as a step (blocked by directory.countries.list-shape). */
  async countries(): Promise<Country[]> {
    return this.listed(await this.listCountries(), 'countries', 'directory.countries.list-shape', 'list the countries');
  }
  /**
   * The first entry of a list, as a step: an empty list (a list of the shape: no minimum is given)
   * leaves the check not judged, there being no entry to read.
   */
  async first<K extends 'banks' | 'cities' | 'countries'>(
    kind: K,
  ): Promise<Awaited<ReturnType<DirectoryClient[K]>>[number]> {
    const list = await this[kind]();
    if (!list.length) notJudged(`the list of ${kind} is empty: no listed entry to read`);
    return list[0] as Awaited<ReturnType<DirectoryClient[K]>>[number];
  }

  /** The whole directory, read once: banks with their details, cities, countries (each read a step). */
  async snapshot(): Promise<{ banks: AspspDetail[]; cities: City[]; countries: Country[] }> {
    const banks = await this.banks();
    const cities = await this.cities();
    const countries = await this.countries();
    const details = await Promise.all(
      banks.map(async (b) =>
        requireSuccess(
          await this.bank(b.bicFi),
          'directory.aspsp.detail-shape',
          `read the bank ${b.bicFi}`,
        ).json<AspspDetail>(),
      ),
    );
    return { banks: details, cities, countries };
  }
}

/** The country code of a bank's detail, whether it gives the code or the country's name. */
export function countryCodeOf(detail: AspspDetail, countries: Country[]): string | undefined {
  const c = detail.country?.trim();
  if (!c) return undefined;
  return countries.find((k) => k.isoCountryCode === c.toUpperCase() || k.name.toLowerCase() === c.toLowerCase())
    ?.isoCountryCode;
}

export const test = base.extend<{ directory: DirectoryClient }>({
  directory: boxed(async ({ api }, use) => {
    await use(new DirectoryClient(api.with({ scope: 'aspspinformation' })));
  }),
});
