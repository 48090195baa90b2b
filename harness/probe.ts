import { randomUUID } from 'node:crypto';
import type { Target } from './config/target.js';
import { BROKEN_MARK, TargetBroken } from './http/broken.js';
import { ApiClient } from './http/client.js';
import type { ApiResponse } from './http/response.js';
import { TokenCache } from './auth/tokens.js';

/** One read of the probe: a path of the profile, the key that sets it, the token scope and headers it is sent with. */
export interface ProbeRead {
  path: string;
  key: string;
  scope: string;
  headers?: Record<string, string>;
}

/**
 * What the probe reads of a profile: the directory's two lists when it is claimed, then, for each
 * other area claimed, a read of a resource that does not exist (a consent's status, the accounts
 * under an unknown consent, a payment's status, a basket's status, a direct debit payment): a route
 * that exists answers it with a refusal of its own, a missing route with a 404. Nothing the
 * profile does not claim is called.
 */
export function probeReads(target: Target, id: string = randomUUID()): ProbeRead[] {
  const { features, paths, payments } = target.profile;
  const has = (f: string) => features.includes(f);
  const reads: ProbeRead[] = [];
  if (has('directory') && paths.aspsps && paths.countries)
    reads.push(
      { path: paths.aspsps, key: 'paths.aspsps', scope: 'aspspinformation' },
      { path: paths.countries, key: 'paths.countries', scope: 'aspspinformation' },
    );
  if (has('consents'))
    reads.push({ path: `${paths.consents}/${id}/status`, key: 'paths.consents', scope: 'accountinformation' });
  if (has('accounts'))
    reads.push({
      path: paths.accounts,
      key: 'paths.accounts',
      scope: 'accountinformation',
      headers: { 'Consent-ID': id },
    });
  const service = payments.services[0];
  const product = payments.products[0];
  if (has('payments') && service && product)
    reads.push({
      path: `${paths.payments}/${service}/${product}/${id}/status`,
      key: 'paths.payments',
      scope: 'paymentinitiation',
    });
  if (has('signing-baskets'))
    reads.push({
      path: `${paths.signingBaskets}/${id}/status`,
      key: 'paths.signingBaskets',
      scope: 'paymentinitiation',
    });
  if (has('direct-debit'))
    reads.push({
      path: `${paths.directDebitPayments}/${id}`,
      key: 'paths.directDebitPayments',
      scope: 'paymentinitiation',
    });
  return reads;
}

/** The line that says what the probe reads and how to skip it. */
export function probeLine(target: Target): string {
  const reads = probeReads(target, '{id}');
  return `probe: an application token${reads.length ? ` and GET ${reads.map((r) => r.path).join(', GET ')} (until one answers)` : ' (the profile claims no area: no read)'}; OBG_PROBE=0 skips it`;
}

/** A read's answer shows no route: a 404, or an HTML page (a web server's or a gateway's own). */
const noRoute = (res: ApiResponse) =>
  res.status === 404 || /html/i.test(res.contentType) || /^\s*<(!doctype|html)/i.test(res.text);

/**
 * Before any test: is the target there at all? An application token and the reads above, until
 * one answers. The target is unavailable when no token can be had (refused, reset, timed out, a
 * 5xx or an HTML page at the token endpoint, or credentials it refuses), when every read answers
 * nothing usable (a transport error, a 5xx, a body that is not JSON), or when every read answers
 * 404 or an HTML page (nothing of the API at the profile's paths: the paths tried and the profile
 * keys that set them are named). A target that answers, however wrongly, is judged in full.
 * Returns why it is unavailable, or undefined.
 */
export async function probeTarget(target: Target): Promise<string | undefined> {
  const tokens = new TokenCache(target);
  const reads = probeReads(target);
  if (!reads.length) {
    try {
      await tokens.get('aspspinformation');
      return undefined;
    } catch (e) {
      if (!(e instanceof TargetBroken)) throw e;
      return e.message.replace(BROKEN_MARK, '').trim();
    }
  }
  const api = new ApiClient(
    target,
    () => {},
    (scope) => tokens.get(scope),
    {},
  );
  const problems: string[] = [];
  const missing: string[] = [];
  for (const read of reads) {
    try {
      const res = await api.get(read.path, { scope: read.scope, headers: read.headers });
      if (noRoute(res)) missing.push(`GET /${read.path} (${read.key}) → ${res.status} ${res.contentType}`);
      else if (res.status >= 500) problems.push(res.describe());
      else {
        if (res.text.trim()) res.json();
        return undefined;
      }
    } catch (e) {
      if (!(e instanceof TargetBroken)) throw e;
      const message = e.message.replace(BROKEN_MARK, '').trim();
      // Without a token nothing can be judged: one reason is enough.
      if (message.startsWith('no application token')) return message;
      problems.push(message);
    }
  }
  if (!problems.length)
    return `every read answered 404 or an HTML page: nothing of the API at the profile's paths (${missing.join('; ')}). Check TARGET_BASE_URL (${target.baseUrl}) and the profile keys named, in ${target.profileName} (obg-conformance init asks the bank which paths answer)`;
  return `${[...problems, ...missing].join('; ')} (${probeLine(target)})`;
}
