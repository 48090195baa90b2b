import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { NOTIFICATION_CONTENT, PSU_HTTP_METHODS, type FormatRequirement } from '../operations/header-rules.js';

/*
 * Request headers generated within the rules of "Common request headers" (harness/operations/
 * header-rules.ts holds them: the self-tests hold every value drawn here to its predicates): sets of
 * optional headers of one group with valid values (the forwarded PSU headers, the PSU
 * identification headers, the redirect and notification headers), each beside an X-Request-ID,
 * and values of one header that break its format near a valid value (a decimal too many or too
 * few, an octet over 255, a uuid with one character or one group's length off, a method in lower
 * case), each kept beside the valid value it was made from (its positive control).
 */

/** Header name to value. */
export type HeaderSet = Record<string, string>;

/** A value breaking one header's rule, beside the valid value it was made from, and how it breaks it. */
export interface BrokenHeader {
  header: string;
  valid: string;
  broken: string;
  how: string;
}

/** A uuid of any version RFC 9562 defines (1 to 8), as fast-check draws it (lower case). */
export const uuids = (): fc.Arbitrary<string> => fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] });

/**
 * The X-Request-ID a call sends for a drawn one: its version and variant kept, its last twelve
 * digits made fresh ("unique per call, set by the caller"), so that a case tried again while
 * shrinking never sends an id twice.
 */
export const freshRequestId = (drawn: string): string => `${drawn.slice(0, 24)}${randomBytes(6).toString('hex')}`;

/** Text of visible ASCII, spaces inside only. */
const visibleText = (most: number) =>
  fc
    .string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: most,
    })
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** What browsers send, beside any visible text: a quarter of the values. */
const REALISTIC: Record<string, string[]> = {
  'PSU-Accept': ['application/json', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  'PSU-Accept-Charset': ['utf-8', 'iso-8859-1;q=0.5, utf-8'],
  'PSU-Accept-Encoding': ['gzip', 'gzip, deflate, br'],
  'PSU-Accept-Language': ['sv-SE', 'sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7'],
  'PSU-User-Agent': ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'],
};
const forwardedText = (header: string) =>
  fc.oneof({ arbitrary: fc.constantFrom(...REALISTIC[header]), weight: 1 }, { arbitrary: visibleText(80), weight: 3 });

/** A coordinate in millionths of a degree written with `decimals` decimals (7: one more digit, `extra`). */
export function coordinate(micro: number, decimals = 6, extra = 5): string {
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / 1_000_000);
  const fraction = String(abs % 1_000_000).padStart(6, '0');
  const digits = decimals <= 6 ? fraction.slice(0, decimals) : `${fraction}${String(extra).repeat(decimals - 6)}`;
  return `${micro < 0 ? '-' : ''}${whole}.${digits}`;
}

const latitudes = () => fc.integer({ min: -90_000_000, max: 90_000_000 });
const longitudes = () => fc.integer({ min: -180_000_000, max: 180_000_000 });

/** `GEO:<lat>;<lon>`, six decimals each, within the earth's range. */
export const geoLocations = (): fc.Arbitrary<string> =>
  fc.tuple(latitudes(), longitudes()).map(([lat, lon]) => `GEO:${coordinate(lat)};${coordinate(lon)}`);

/** Any subset of the forwarded PSU headers with valid values, beside an X-Request-ID. */
export function forwardedHeaders(): fc.Arbitrary<HeaderSet> {
  return fc.record(
    {
      'X-Request-ID': uuids(),
      'PSU-IP-Port': fc.integer({ min: 1, max: 65535 }).map(String),
      'PSU-Accept': forwardedText('PSU-Accept'),
      'PSU-Accept-Charset': forwardedText('PSU-Accept-Charset'),
      'PSU-Accept-Encoding': forwardedText('PSU-Accept-Encoding'),
      'PSU-Accept-Language': forwardedText('PSU-Accept-Language'),
      'PSU-User-Agent': forwardedText('PSU-User-Agent'),
      'PSU-Http-Method': fc.constantFrom(...PSU_HTTP_METHODS),
      'PSU-Device-ID': uuids(),
      'PSU-Geo-Location': geoLocations(),
    },
    { requiredKeys: ['X-Request-ID'] },
  ) as fc.Arbitrary<HeaderSet>;
}

/** An identification type: a name of letters, digits and hyphens (the form such types take). */
const idType = () => fc.stringMatching(/^[a-z][a-z0-9-]{0,34}$/);

/**
 * The PSU identification headers beside the PSU's own PSU-ID (the operation's): PSU-ID-Type, and in
 * a corporate context the PSU's PSU-Corporate-ID with (or without) its PSU-Corporate-ID-Type.
 */
export function identificationHeaders(corporateId?: string): fc.Arbitrary<HeaderSet> {
  const corporate = corporateId
    ? fc.option(idType(), { nil: undefined }).map((t) => ({
        'PSU-Corporate-ID': corporateId,
        ...(t === undefined ? {} : { 'PSU-Corporate-ID-Type': t }),
      }))
    : fc.constant({});
  return fc
    .tuple(uuids(), idType(), corporate)
    .map(([id, type, c]) => ({ 'X-Request-ID': id, 'PSU-ID-Type': type, ...c }));
}

/** `status=` and one to three of SCA, PROCESS, LAST in any order, none repeated. */
export const notificationPreferences = (): fc.Arbitrary<string> =>
  fc.shuffledSubarray([...NOTIFICATION_CONTENT], { minLength: 1 }).map((items) => `status=${items.join(',')}`);

/**
 * Any non-empty subset of the redirect and notification headers, beside an X-Request-ID. The return
 * addresses are the target's own (a bank may hold the TPP to its registered ones); the notification
 * address any path under one host. TPP-Redirect-Preferred is left to the operation (a start keeps
 * its `false`), or `false`, or `true` only with a TPP-Redirect-URI ("mandated when
 * TPP-Redirect-Preferred is true").
 */
export function redirectNotificationHeaders(redirectUri: string): fc.Arbitrary<HeaderSet> {
  const path = fc.stringMatching(/^[a-z0-9-]{1,20}$/);
  return fc
    .record(
      {
        'TPP-Redirect-URI': fc.constant(redirectUri),
        'TPP-Nok-Redirect-URI': fc.constant(redirectUri),
        'TPP-Notification-URI': path.map((p) => `https://tpp.example/notifications/${p}`),
        'TPP-Notification-Content-Preferred': notificationPreferences(),
      },
      { requiredKeys: [] },
    )
    .filter((h) => Object.keys(h).length > 0)
    .chain((h) =>
      fc
        .constantFrom<(string | undefined)[]>(undefined, 'false', ...('TPP-Redirect-URI' in h ? ['true'] : []))
        .map((preferred) => ({ ...h, ...(preferred ? { 'TPP-Redirect-Preferred': preferred } : {}) })),
    )
    .chain((h) => uuids().map((id) => ({ 'X-Request-ID': id, ...h }) as HeaderSet));
}

/** Characters outside 0-9a-f (and A-F). */
const NON_HEX = 'ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ_+.';
const GROUPS = [8, 4, 4, 4, 12];

/**
 * A uuid with one character changed to a non-hex one (any position, a hyphen's too), or, with
 * `resize`, one group a character longer or shorter (a form a lenient reader takes:
 * java.util.UUID.fromString reads each group as a number; never in a MUST).
 */
function brokenUuids(header: string, resize = true): fc.Arbitrary<BrokenHeader> {
  const changed = fc
    .record({ valid: uuids(), at: fc.integer({ min: 0, max: 35 }), ch: fc.constantFrom(...NON_HEX) })
    .map(({ valid, at, ch }) => ({
      header,
      valid,
      broken: `${valid.slice(0, at)}${ch}${valid.slice(at + 1)}`,
      how: `character ${at + 1} changed to "${ch}"`,
    }));
  const resized = fc
    .record({ valid: uuids(), group: fc.integer({ min: 0, max: 4 }), longer: fc.boolean() })
    .map(({ valid, group, longer }) => {
      const parts = valid.split('-');
      parts[group] = longer ? `${parts[group]}${parts[group][0]}` : parts[group].slice(0, -1);
      return {
        header,
        valid,
        broken: parts.join('-'),
        how: `group ${group + 1} of ${longer ? GROUPS[group] + 1 : GROUPS[group] - 1} characters (not ${GROUPS[group]})`,
      };
    });
  return resize ? fc.oneof(changed, resized) : changed;
}

/** Other methods than the five: HTTP's own (RFC 9110), the draft QUERY and two of WebDAV's. */
const OTHER_METHODS = ['HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'QUERY', 'PROPFIND', 'COPY'];

/** One of the five with one letter or more in lower case, or another method. */
function brokenMethods(): fc.Arbitrary<BrokenHeader> {
  const header = 'PSU-Http-Method';
  const lowered = fc
    .record({ valid: fc.constantFrom(...PSU_HTTP_METHODS), mask: fc.integer({ min: 1, max: 127 }) })
    .map(({ valid, mask }) => {
      const bits = mask & ((1 << valid.length) - 1) || (1 << valid.length) - 1;
      const broken = [...valid].map((ch, i) => (bits & (1 << i) ? ch.toLowerCase() : ch)).join('');
      return { header, valid, broken, how: 'in lower case' };
    });
  const other = fc
    .record({ valid: fc.constantFrom(...PSU_HTTP_METHODS), broken: fc.constantFrom(...OTHER_METHODS) })
    .map(({ valid, broken }) => ({ header, valid, broken, how: 'another method' }));
  // Twice as many other methods as lower cases: a bank that takes HTTP's own is the likelier slip.
  return fc.oneof({ arbitrary: lowered, weight: 1 }, { arbitrary: other, weight: 2 });
}

/**
 * A geo location with five or seven decimals in the latitude, or in the longitude only, without
 * its `GEO:` prefix, or with another separator than `;`. Not a number out of range: the words bound
 * neither.
 */
function brokenGeoLocations(): fc.Arbitrary<BrokenHeader> {
  const header = 'PSU-Geo-Location';
  return fc
    .record({
      lat: latitudes(),
      lon: longitudes(),
      extra: fc.integer({ min: 0, max: 9 }),
      // A decimal too many or too few in one number, the points between the hand-written checks' (a
      // value without its prefix, one of two decimals), twice as often as the form's other breaks.
      how: fc.oneof(
        {
          arbitrary: fc.constantFrom(
            'latitude of 5 decimals',
            'latitude of 7 decimals',
            'longitude of 5 decimals',
            'longitude of 7 decimals',
          ),
          weight: 4,
        },
        { arbitrary: fc.constantFrom('no GEO: prefix', 'separator ","'), weight: 1 },
      ),
    })
    .map(({ lat, lon, extra, how }) => {
      const valid = `GEO:${coordinate(lat)};${coordinate(lon)}`;
      const decimals = /of (\d) decimals/.exec(how)?.[1];
      const la = coordinate(lat, how.startsWith('latitude') ? Number(decimals) : 6, extra);
      const lo = coordinate(lon, how.startsWith('longitude') ? Number(decimals) : 6, extra);
      const broken =
        how === 'no GEO: prefix' ? `${la};${lo}` : how === 'separator ","' ? `GEO:${la},${lo}` : `GEO:${la};${lo}`;
      return { header, valid, broken, how };
    });
}

/** An IPv4 address with one octet over 255 (at any position), or of three or five octets. */
function brokenIpv4s(): fc.Arbitrary<BrokenHeader> {
  const header = 'PSU-IP-Address';
  const octets = fc.tuple(...[0, 1, 2, 3].map(() => fc.integer({ min: 0, max: 255 })));
  const over = fc
    .record({ octets, at: fc.integer({ min: 0, max: 3 }), value: fc.integer({ min: 256, max: 999 }) })
    .map(({ octets: o, at, value }) => ({
      header,
      valid: o.join('.'),
      broken: o.map((n, i) => (i === at ? value : n)).join('.'),
      how: `octet ${at + 1} over 255`,
    }));
  const count = fc
    .record({ octets, at: fc.integer({ min: 0, max: 3 }), fifth: fc.option(fc.integer({ min: 0, max: 255 })) })
    .map(({ octets: o, at, fifth }) => {
      const broken = [...o];
      if (fifth === null) broken.splice(at, 1);
      else broken.splice(at, 0, fifth);
      return { header, valid: o.join('.'), broken: broken.join('.'), how: `${broken.length} octets` };
    });
  // Twice as many octets over 255 as octet counts: there are four positions to try.
  return fc.oneof({ arbitrary: over, weight: 2 }, { arbitrary: count, weight: 1 });
}

/** Values breaking the rule a refusal requirement judges, each beside the valid value it was made from. */
export function brokenHeaders(requirement: FormatRequirement): fc.Arbitrary<BrokenHeader> {
  switch (requirement) {
    case 'headers.psu-http-method.enum':
      return brokenMethods();
    case 'headers.psu-device-id.uuid':
      return brokenUuids('PSU-Device-ID');
    case 'headers.psu-geo-location.format':
      return brokenGeoLocations();
    case 'headers.psu-ip-address.format':
      return brokenIpv4s();
    case 'headers.x-request-id.uuid':
      return brokenUuids('X-Request-ID', false);
  }
}
