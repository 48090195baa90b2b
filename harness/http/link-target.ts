import type { Target } from '../config/target.js';
import { linkUrl } from './links.js';

/**
 * What a link of a resource points at, by its name: the path after the resource's id (a string,
 * exactly; a pattern, matched). `self` is the resource itself, `status` its status, `scaStatus`
 * one of its authorisations, `startAuthorisation` (and its named variants) the list an
 * authorisation is created in. Links of other names (the bank's SCA pages, a download) are not
 * judged here.
 */
export type LinkTails = Record<string, string | RegExp>;

/** The links of a consent, a payment or a basket (its initiation answer, its read). */
export const RESOURCE_LINKS: LinkTails = {
  self: '',
  status: 'status',
  scaStatus: /^authorisations\/[^/]+$/,
  startAuthorisation: 'authorisations',
  startAuthorisationWithPsuIdentification: 'authorisations',
  startAuthorisationWithPsuAuthentication: 'authorisations',
  startAuthorisationWithEncryptedPsuAuthentication: 'authorisations',
  startAuthorisationWithAuthenticationMethodSelection: 'authorisations',
  startAuthorisationWithTransactionAuthorisation: 'authorisations',
  startAuthorisationWithProprietaryData: 'authorisations',
};

/** The links of a payment's cancellation answer: the payment's own, but an authorisation is a cancellation authorisation. */
export const CANCELLATION_LINKS: LinkTails = {
  ...Object.fromEntries(
    Object.entries(RESOURCE_LINKS).map(([name, tail]) => [
      name,
      tail === 'authorisations' ? 'cancellation-authorisations' : tail,
    ]),
  ),
  scaStatus: /^cancellation-authorisations\/[^/]+$/,
};

/** The links of an account (List accounts, account detail): its reads, after its resourceId. */
export const ACCOUNT_LINKS: LinkTails = { self: '', balances: 'balances', transactions: 'transactions' };

const describeTail = (tail: string | RegExp) =>
  typeof tail === 'string' ? (tail ? `/${tail}` : 'nothing') : `a path matching ${String(tail)}`;

/**
 * Why the link `name` (`href`) of the resource `id` does not point at that resource, or
 * undefined when it does: resolved as every link is, its path holds the id as a whole segment
 * (after `parent`, the segment of the resource's kind, e.g. its payment product, when given) and
 * then exactly what the link's name calls for (`tails`). A link whose name has no tail there
 * is not judged (undefined).
 */
export function notPointingAt(
  target: Pick<Target, 'baseUrl' | 'profile'>,
  link: { name: string; href: string },
  resource: { id: string; parent?: string; what: string },
  tails: LinkTails = RESOURCE_LINKS,
): string | undefined {
  const tail = tails[link.name];
  if (tail === undefined) return undefined;
  let path: string;
  try {
    path = linkUrl(target, link.href).pathname;
  } catch (e) {
    return `_links.${link.name} (${link.href}) does not resolve to a URL: ${(e as Error).message}`;
  }
  const segments = path.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  const at = segments.lastIndexOf(resource.id);
  const where = `_links.${link.name} (${link.href}) of ${resource.what} ${resource.id}`;
  if (at < 0) return `${where} must point at it: its path ${path} does not name ${resource.id}`;
  if (resource.parent !== undefined && segments[at - 1] !== resource.parent)
    return `${where} must point at it: in its path ${path} the id follows "${segments[at - 1]}", not "${resource.parent}"`;
  const rest = segments
    .slice(at + 1)
    .filter((s, i, all) => s !== '' || i < all.length - 1)
    .join('/');
  const fits = typeof tail === 'string' ? rest === tail : tail.test(rest);
  return fits
    ? undefined
    : `${where} must point at its ${link.name}: after the id its path ${path} has ${rest ? `/${rest}` : 'nothing'}, where ${describeTail(tail)} is due`;
}
