import { isGeoLocation, isIpv4, isUuid } from '../../spec/header-forms.js';
import type { HeaderGroup, Operation } from './types.js';

/*
 * The rules of "Common request headers" (spec/open-banking-gateway-api.md) that the header checks
 * judge, in one place: which operations take which header, the forms of the forwarded PSU headers,
 * of PSU-IP-Address and X-Request-ID, and of the notification preference. The hand-written checks
 * (tests/headers/) take their operations from here; the generated phase (harness/properties/
 * headers-cases.ts) draws its valid values within these forms and its broken ones outside them, and
 * its self-tests hold every drawn value to the predicates below.
 */

/** "PSU-Http-Method | string | one of `GET`, `POST`, `PUT`, `PATCH`, `DELETE`". */
export const PSU_HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** "TPP-Notification-Content-Preferred | string | form `status=X1,...,Xn` with Xi from `SCA`, `PROCESS`, `LAST`, no repeats". */
export const NOTIFICATION_CONTENT = ['SCA', 'PROCESS', 'LAST'] as const;

/** "PSU-IP-Port, PSU-Accept, … PSU-User-Agent | string | forwarded PSU request data, when available": the free-text ones. */
export const FORWARDED_PSU_TEXT = [
  'PSU-Accept',
  'PSU-Accept-Charset',
  'PSU-Accept-Encoding',
  'PSU-Accept-Language',
  'PSU-User-Agent',
] as const;

/** The forwarded PSU headers (headers.optional.psu-forwarded names them all). */
export const FORWARDED_PSU_HEADERS = [
  'PSU-IP-Port',
  ...FORWARDED_PSU_TEXT,
  'PSU-Http-Method',
  'PSU-Device-ID',
  'PSU-Geo-Location',
] as const;

/** string(uuid) (X-Request-ID, PSU-Device-ID), string(ipv4) and the geo location form: spec/header-forms.ts. */
export { isGeoLocation, isIpv4, isUuid };

/** One of the five methods, as written (upper case). */
export const isPsuHttpMethod = (v: string): boolean => (PSU_HTTP_METHODS as readonly string[]).includes(v);

/** A port: a whole number from 1 to 65535. */
export const isPort = (v: string): boolean => /^[1-9][0-9]{0,4}$/.test(v) && Number(v) <= 65535;

/** Forwarded free text: visible ASCII, spaces inside only (a header value's ends are not its own). */
export const isVisibleText = (v: string): boolean => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v);

/** `status=X1,...,Xn`: one or more of SCA, PROCESS, LAST, none repeated. */
export function isNotificationPreference(v: string): boolean {
  const m = /^status=(.+)$/.exec(v);
  if (!m) return false;
  const items = m[1].split(',');
  return (
    items.every((i) => (NOTIFICATION_CONTENT as readonly string[]).includes(i)) && new Set(items).size === items.length
  );
}

/** The operations that accept a group of optional headers (the table's `accepts`). */
export const accepts =
  (group: HeaderGroup) =>
  (o: Operation): boolean =>
    o.accepts.includes(group);

/** "Redirect and notification headers are accepted on create consent, initiate payment, create signing basket and the start-authorisation operations." */
export const acceptsRedirectAndNotification = (o: Operation): boolean =>
  o.accepts.includes('redirect') && o.accepts.includes('notification');

/**
 * The operations that take PSU-IP-Address: initiate payment and create signing basket (where it is
 * required), the operations that create or update an authorisation (the flow guide sends it there)
 * and section H's operations (their headers list it). Account reads: accounts.read.psu-ip-address-format.
 */
export const takesPsuIpAddress = (o: Operation): boolean =>
  o.requires.includes('PSU-IP-Address') || o.accepts.includes('psu-identification') || o.group === 'direct-debit';

/** A header format rule judged by a refusal: the header, its form, and the operations it governs. */
export interface FormatRule {
  header: string;
  holds: (v: string) => boolean;
  applies: (o: Operation) => boolean;
}

/** The format rules of the refusal checks, by requirement. */
export const FORMAT_RULES = {
  'headers.psu-http-method.enum': {
    header: 'PSU-Http-Method',
    holds: isPsuHttpMethod,
    applies: accepts('psu-forwarded'),
  },
  'headers.psu-device-id.uuid': { header: 'PSU-Device-ID', holds: isUuid, applies: accepts('psu-forwarded') },
  'headers.psu-geo-location.format': {
    header: 'PSU-Geo-Location',
    holds: isGeoLocation,
    applies: accepts('psu-forwarded'),
  },
  'headers.psu-ip-address.format': { header: 'PSU-IP-Address', holds: isIpv4, applies: takesPsuIpAddress },
  'headers.x-request-id.uuid': { header: 'X-Request-ID', holds: isUuid, applies: () => true },
} as const satisfies Record<string, FormatRule>;

export type FormatRequirement = keyof typeof FORMAT_RULES;
