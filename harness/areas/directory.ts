import type { SchemaType } from '../../schemas/index.js';
import type { ApiClient } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { boxed, test as base } from '../test.js';

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

  /** The whole directory, read once: banks with their details, cities, countries. */
  async snapshot(): Promise<{ banks: AspspDetail[]; cities: City[]; countries: Country[] }> {
    const banks = (await this.listBanks()).json<{ aspsps: AspspEntry[] }>().aspsps;
    const cities = (await this.listCities()).json<{ cities: City[] }>().cities;
    const countries = (await this.listCountries()).json<{ countries: Country[] }>().countries;
    const details = await Promise.all(banks.map(async (b) => (await this.bank(b.bicFi)).json<AspspDetail>()));
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
