import fc from 'fast-check';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import {
  brokenHeaders,
  coordinate,
  forwardedHeaders,
  freshRequestId,
  identificationHeaders,
  notificationPreferences,
  redirectNotificationHeaders,
  type BrokenHeader,
  type HeaderSet,
} from '../../harness/properties/headers-cases.js';
import {
  FORMAT_RULES,
  FORWARDED_PSU_HEADERS,
  FORWARDED_PSU_TEXT,
  acceptsRedirectAndNotification,
  isGeoLocation,
  isIpv4,
  isNotificationPreference,
  isPort,
  isPsuHttpMethod,
  isUuid,
  isVisibleText,
  takesPsuIpAddress,
  type FormatRequirement,
} from '../../harness/operations/header-rules.js';
import { OPERATIONS } from '../../harness/operations/table.js';

// The generated headers against the rules they are drawn from (harness/operations/header-rules.ts):
// every valid value holds its header's rule, every broken one breaks it beside a valid one, and
// the rules themselves read the hand-written checks' values as those checks do.

const sample = <T>(gen: fc.Arbitrary<T>, seed: number, n: number): T[] => fc.sample(gen, { seed, numRuns: n });

/** The rule of each header a valid set may carry. */
const HOLDS: Record<string, (v: string) => boolean> = {
  'X-Request-ID': isUuid,
  'PSU-IP-Port': isPort,
  ...Object.fromEntries(FORWARDED_PSU_TEXT.map((h) => [h, isVisibleText])),
  'PSU-Http-Method': isPsuHttpMethod,
  'PSU-Device-ID': isUuid,
  'PSU-Geo-Location': isGeoLocation,
  'TPP-Notification-Content-Preferred': isNotificationPreference,
};

const latLon = (geo: string) => geo.slice(4).split(';').map(Number);

test('the rules read the hand-written checks values as those checks judge them', () => {
  expect(isGeoLocation('GEO:59.329323;18.068581')).toBe(true);
  expect(isGeoLocation('GEO:-33.868820;-151.209296')).toBe(true);
  for (const v of ['59.329323;18.068581', 'GEO:59.33;18.07', 'GEO:59.329323;18.0685810', 'GEO:59.329323,18.068581'])
    expect(isGeoLocation(v), v).toBe(false);
  expect(isIpv4('192.0.2.1')).toBe(true);
  for (const v of ['256.1.2.3', '192.0.2.300', 'not-an-ip', '1.2.3', '1.2.3.4.5', '::1'])
    expect(isIpv4(v), v).toBe(false);
  expect(isUuid('6f1e0f1c-0d2e-4c0b-9d1e-6f1e0f1c0d2e')).toBe(true);
  for (const v of ['not-a-uuid', '6f1e0f1c0d2e4c0b9d1e6f1e0f1c0d2e', 'device-0001']) expect(isUuid(v), v).toBe(false);
  expect(['GET', 'PATCH'].every(isPsuHttpMethod)).toBe(true);
  expect(['FETCH', 'get', 'HEAD'].some(isPsuHttpMethod)).toBe(false);
  expect(['status=SCA,PROCESS', 'status=LAST', 'status=LAST,SCA'].every(isNotificationPreference)).toBe(true);
  for (const v of ['status=', 'status=SCA,SCA', 'SCA', 'status=sca', 'status=SCA,,LAST'])
    expect(isNotificationPreference(v), v).toBe(false);
  expect(['1', '443', '65535'].every(isPort)).toBe(true);
  expect(['0', '65536', '080', 'http'].some(isPort)).toBe(false);
});

test('the operations the rules govern are the table rows the hand-written checks name', () => {
  const ids = (f: (o: (typeof OPERATIONS)[number]) => boolean) => OPERATIONS.filter(f).map((o) => o.id);
  expect(ids(takesPsuIpAddress)).toEqual(
    expect.arrayContaining([
      'payments.initiate',
      'signing-baskets.create',
      'direct-debit.get',
      'consents.authorisations.update',
    ]),
  );
  expect(ids(takesPsuIpAddress).some((id) => id.startsWith('accounts.') || id.startsWith('directory.'))).toBe(false);
  expect(ids(acceptsRedirectAndNotification).sort()).toEqual(
    [
      'consents.authorisations.start',
      'consents.create',
      'payments.authorisations.start',
      'payments.cancellation-authorisations.start',
      'payments.initiate',
      'signing-baskets.authorisations.start',
      'signing-baskets.create',
    ].sort(),
  );
  expect(ids(FORMAT_RULES['headers.psu-device-id.uuid'].applies).some((id) => id.startsWith('directory.'))).toBe(false);
  expect(ids(FORMAT_RULES['headers.x-request-id.uuid'].applies)).toHaveLength(OPERATIONS.length);
});

test('a coordinate is written with six decimals, or five or seven near it', () => {
  expect(coordinate(59_329_323)).toBe('59.329323');
  expect(coordinate(-5)).toBe('-0.000005');
  expect(coordinate(-180_000_000)).toBe('-180.000000');
  expect(coordinate(59_329_323, 5)).toBe('59.32932');
  expect(coordinate(59_329_323, 7, 4)).toBe('59.3293234');
});

test('every generated set of forwarded PSU headers holds every rule of its headers, within the earth', () => {
  const seen = new Set<string>();
  const offences: string[] = [];
  for (const h of sample(forwardedHeaders(), 1, 300)) {
    if (!h['X-Request-ID']) offences.push(`no X-Request-ID: ${JSON.stringify(h)}`);
    for (const [k, v] of Object.entries(h)) {
      seen.add(k);
      if (!HOLDS[k]?.(v)) offences.push(`${k}: ${JSON.stringify(v)}`);
    }
    const [lat, lon] = h['PSU-Geo-Location'] ? latLon(h['PSU-Geo-Location']) : [0, 0];
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) offences.push(`off the earth: ${h['PSU-Geo-Location']}`);
  }
  expect(offences).toEqual([]);
  expect([...seen].sort(), 'every forwarded header is drawn').toEqual(
    ['X-Request-ID', ...FORWARDED_PSU_HEADERS].sort(),
  );
});

test('generated identification, redirect and notification headers keep to their rules', () => {
  const offences: string[] = [];
  for (const h of sample(identificationHeaders(), 2, 50))
    if (Object.keys(h).sort().join() !== 'PSU-ID-Type,X-Request-ID' || !/^[a-z][a-z0-9-]{0,34}$/.test(h['PSU-ID-Type']))
      offences.push(`identification: ${JSON.stringify(h)}`);
  for (const h of sample(identificationHeaders('corp-1'), 3, 50))
    if (h['PSU-Corporate-ID'] !== 'corp-1' || (h['PSU-Corporate-ID-Type'] ?? 'x').length === 0)
      offences.push(`corporate: ${JSON.stringify(h)}`);
  const orders = new Set(sample(notificationPreferences(), 4, 200));
  offences.push(...[...orders].filter((p) => !isNotificationPreference(p)));
  expect(orders.has('status=PROCESS,SCA') || orders.has('status=LAST,SCA'), 'any order is drawn').toBe(true);
  const uri = 'https://tpp.example/after-sca';
  for (const h of sample(redirectNotificationHeaders(uri), 5, 200) as HeaderSet[]) {
    const { 'X-Request-ID': id, 'TPP-Redirect-Preferred': preferred, ...rest } = h;
    const wrong = [
      !isUuid(id) && 'X-Request-ID',
      Object.keys(rest).length === 0 && 'an empty set',
      preferred === 'true' && h['TPP-Redirect-URI'] !== uri && 'true without TPP-Redirect-URI',
      ![undefined, 'false', 'true'].includes(preferred) && 'TPP-Redirect-Preferred',
      h['TPP-Notification-Content-Preferred'] !== undefined &&
        !isNotificationPreference(h['TPP-Notification-Content-Preferred']) &&
        'TPP-Notification-Content-Preferred',
      h['TPP-Notification-URI'] !== undefined && !URL.canParse(h['TPP-Notification-URI']) && 'TPP-Notification-URI',
    ].filter(Boolean);
    if (wrong.length) offences.push(`${wrong.join(', ')}: ${JSON.stringify(h)}`);
  }
  expect(offences).toEqual([]);
});

test("every broken header value breaks its rule beside a valid value, in each of the rule's ways", () => {
  const ways: Record<FormatRequirement, RegExp[]> = {
    'headers.psu-http-method.enum': [/lower case/, /another method/],
    'headers.psu-device-id.uuid': [/character \d+ changed/, /group 1 of 7 /, /group 5 of 13 /],
    'headers.psu-geo-location.format': [
      /latitude of 5/,
      /latitude of 7/,
      /longitude of 5/,
      /longitude of 7/,
      /no GEO: prefix/,
      /separator/,
    ],
    'headers.psu-ip-address.format': [/octet 1 over/, /octet 4 over/, /^3 octets/, /^5 octets/],
    // A MUST: never a group's length off by one (a lenient reader takes it).
    'headers.x-request-id.uuid': [/character 9 changed|character 36 changed/],
  };
  for (const [requirement, rule] of Object.entries(FORMAT_RULES) as [
    FormatRequirement,
    (typeof FORMAT_RULES)[FormatRequirement],
  ][]) {
    const drawn = sample(brokenHeaders(requirement), 6, 400) as BrokenHeader[];
    const offences = drawn
      .filter((b) => b.header !== rule.header || !rule.holds(b.valid) || rule.holds(b.broken))
      .map((b) => `${b.header}: valid ${b.valid}, broken ${b.broken} (${b.how})`);
    expect(offences, requirement).toEqual([]);
    const unseen = ways[requirement].filter((way) => !drawn.some((b) => way.test(b.how)));
    expect(unseen, `${requirement}: ways never drawn`).toEqual([]);
    if (requirement === 'headers.x-request-id.uuid')
      expect(
        drawn.filter((b) => /^group /.test(b.how)).map((b) => b.broken),
        `${requirement}: a lenient form drawn`,
      ).toEqual([]);
  }
  // Near the valid value: a geo location's numbers and an address's other octets are the valid one's.
  const far = [
    ...(sample(brokenHeaders('headers.psu-geo-location.format'), 7, 100) as BrokenHeader[]).filter(
      (b) => /decimals/.test(b.how) && b.broken.slice(0, 8) !== b.valid.slice(0, 8),
    ),
    ...(sample(brokenHeaders('headers.psu-ip-address.format'), 8, 100) as BrokenHeader[]).filter((b) => {
      const at = Number(/octet (\d)/.exec(b.how)?.[1] ?? 0) - 1;
      const others = (ip: string) =>
        ip
          .split('.')
          .filter((_, i) => i !== at)
          .join('.');
      return at >= 0 && others(b.broken) !== others(b.valid);
    }),
  ];
  expect(far).toEqual([]);
});

test("a call's X-Request-ID keeps the drawn uuid's version and variant, its last twelve digits fresh", () => {
  const drawn = '00000000-0000-1000-8000-000000000000';
  const a = freshRequestId(drawn);
  const b = freshRequestId(drawn);
  expect(isUuid(a) && isUuid(b)).toBe(true);
  expect(a.slice(0, 24)).toBe(drawn.slice(0, 24));
  expect(a).not.toBe(b);
});
