// The forms of "Common request headers", one each, judged alike by the suite and the sandbox:
// string(uuid) (X-Request-ID, PSU-Device-ID), string(ipv4) (PSU-IP-Address) and the geo location
// (PSU-Geo-Location: "form `GEO:<lat>;<lon>` with six decimals"). Beside the IBAN judge
// (iso13616.ts), where both may import it: the harness's header rules and generated header cases,
// the sandbox's guard and its faults and variants read these, never a form of their own.

/** string(uuid): the textual form of a UUID (RFC 9562), 8-4-4-4-12 hexadecimal digits. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';

/** string(ipv4): four decimal octets of 0 to 255, no leading zero (as node:net's isIPv4). */
export const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/**
 * "form `GEO:<lat>;<lon>` with six decimals": the form and the decimals. The words bound neither
 * number, so a value out of the earth's range is not outside the rule.
 */
export const GEO_LOCATION = /^GEO:-?[0-9]+\.[0-9]{6};-?[0-9]+\.[0-9]{6}$/;

/** A value of string(uuid) (a header absent, or repeated, is none). */
export const isUuid = (v: unknown): boolean => typeof v === 'string' && UUID.test(v);

/** A value of string(ipv4). */
export const isIpv4 = (v: unknown): boolean => typeof v === 'string' && IPV4.test(v);

/** A value of the geo location form. */
export const isGeoLocation = (v: unknown): boolean => typeof v === 'string' && GEO_LOCATION.test(v);
