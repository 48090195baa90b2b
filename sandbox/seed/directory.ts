import { stableUuid } from './ids.js';

export interface Country {
  id: string;
  isoCountryCode: string;
  name: string;
}

export interface City {
  cityId: string;
  name: string;
  isoCountryCode: string;
}

export interface Bank {
  bicFi: string;
  name: string;
  cityId: string;
  city: string;
  country: string;
  postalCode: string;
  streetAddress: string;
  companyNumber: string;
  phone: string;
  globalPaymentProducts: string[];
  supportedAuthorizationMethods: { name: string; uri: string }[];
  affiliatedAspsps: { id: string; name: string }[];
}

const COUNTRIES: Country[] = [
  { id: '752', isoCountryCode: 'SE', name: 'Sweden' },
  { id: '578', isoCountryCode: 'NO', name: 'Norway' },
  { id: '208', isoCountryCode: 'DK', name: 'Denmark' },
  { id: '246', isoCountryCode: 'FI', name: 'Finland' },
  { id: '528', isoCountryCode: 'NL', name: 'Netherlands' },
];

const CITY_NAMES: [string, string][] = [
  ['SE', 'Stockholm'],
  ['SE', 'Göteborg'],
  ['SE', 'Umeå'],
  ['NO', 'Oslo'],
  ['NO', 'Bergen'],
  ['DK', 'København'],
  ['DK', 'Aarhus'],
  ['FI', 'Helsinki'],
  ['FI', 'Tampere'],
  ['NL', 'Amsterdam'],
  ['NL', 'Rotterdam'],
  ['NL', 'Utrecht'],
];

const CITIES: City[] = CITY_NAMES.map(([cc, name]) => ({
  cityId: stableUuid(`city:${cc}:${name}`),
  name,
  isoCountryCode: cc,
}));
const cityOf = (name: string) => CITIES.find((c) => c.name === name)!;

const MBID = (cc: string) => [
  { name: 'Mobile BankID', uri: `https://app.sandbox.example/mbid/${cc.toLowerCase()}` },
  { name: 'Redirect (OAuth2)', uri: 'https://auth.sandbox.example/connect/authorize' },
];

type BankSeed = [
  bic: string,
  name: string,
  city: string,
  street: string,
  postal: string,
  company: string,
  phone: string,
  affiliates?: string[],
];

const SEEDS: BankSeed[] = [
  [
    'SBXBSESS',
    'Sandbox Bank Sverige AB',
    'Stockholm',
    'Kungsträdgårdsgatan 8',
    '111 47',
    '556000-0001',
    '+46 8 000 100 00',
    ['Sandbox Bank Gotland', 'Sandbox Bank Norrland'],
  ],
  ['GTBKSESS', 'Göta Handelsbank AB', 'Göteborg', 'Östra Hamngatan 24', '411 09', '556000-0002', '+46 31 000 200 00'],
  [
    'NRSBSE22',
    'Norrlands Sparbank',
    'Umeå',
    'Storgatan 42',
    '903 26',
    '556000-0003',
    '+46 90 000 300 00',
    ['Skellefteå Sparbank', 'Piteå Sparbank', 'Luleå Sparbank'],
  ],
  ['FJRDNOKK', 'Fjordbanken ASA', 'Oslo', 'Karl Johans gate 27', '0159', '990 000 001', '+47 22 00 01 00'],
  [
    'BRGSNO22',
    'Bergen Sparebank',
    'Bergen',
    'Torgallmenningen 2',
    '5014',
    '990 000 002',
    '+47 55 00 02 00',
    ['Voss Sparebank', 'Hardanger Sparebank'],
  ],
  ['KBHBDKKK', 'Københavns Bank A/S', 'København', 'Holmens Kanal 2', '1060', '10000001', '+45 33 00 01 00'],
  ['ARHSDK22', 'Aarhus Andelskasse', 'Aarhus', 'Store Torv 1', '8000', '10000002', '+45 87 00 02 00'],
  ['HLSPFIHH', 'Helsingin Pankki Oyj', 'Helsinki', 'Aleksanterinkatu 30', '00100', '0100001-1', '+358 9 000 1000'],
  [
    'TMPSFI22',
    'Tampereen Säästöpankki',
    'Tampere',
    'Hämeenkatu 10',
    '33100',
    '0100002-2',
    '+358 3 000 2000',
    ['Pirkanmaan Osuuspankki', 'Nokian Säästöpankki'],
  ],
  ['AMSBNL2A', 'Amsterdamse Bank N.V.', 'Amsterdam', 'Damrak 1', '1012 LG', '33000001', '+31 20 000 0100'],
  ['RTDMNL2R', 'Rotterdamse Handelsbank N.V.', 'Rotterdam', 'Coolsingel 40', '3011 AD', '24000002', '+31 10 000 0200'],
  [
    'UTRSNL2U',
    'Utrechtse Spaarbank',
    'Utrecht',
    'Oudegracht 100',
    '3511 AX',
    '30000003',
    '+31 30 000 0300',
    ['Gooise Spaarbank'],
  ],
];

const BANKS: Bank[] = SEEDS.map(
  ([bicFi, name, cityName, streetAddress, postalCode, companyNumber, phone, affiliates]) => {
    const city = cityOf(cityName);
    return {
      bicFi,
      name,
      cityId: city.cityId,
      city: city.name,
      country: city.isoCountryCode,
      postalCode,
      streetAddress,
      companyNumber,
      phone,
      globalPaymentProducts:
        city.isoCountryCode === 'SE' ? ['domestic', 'international', 'swedish-giro'] : ['domestic', 'international'],
      supportedAuthorizationMethods: MBID(city.isoCountryCode),
      affiliatedAspsps: (affiliates ?? []).map((a) => ({
        id: stableUuid(`affiliate:${bicFi}:${a}`).slice(0, 8).toUpperCase(),
        name: a,
      })),
    };
  },
);

/** The seeded directory: the same on every run. */
export const DIRECTORY = { countries: COUNTRIES, cities: CITIES, banks: BANKS } as const;
