import type { Target } from './config/target.js';
import { BROKEN_MARK, TargetBroken } from './http/broken.js';
import { ApiClient } from './http/client.js';
import { TokenCache } from './auth/tokens.js';

/** Set by the run's global setup, for the conformance reporter, when the target answers nothing usable. */

/** What the probe reads of a profile: the directory's two lists when it is claimed, else nothing beyond the token. */
export function probeReads(target: Target): string[] {
  const { features, paths } = target.profile;
  if (!features.includes('directory') || !paths.aspsps || !paths.countries) return [];
  return [paths.aspsps, paths.countries];
}

/** The line that says what the probe read and how to skip it. */
export function probeLine(target: Target): string {
  const reads = probeReads(target);
  return `probe: an application token${reads.length ? ` and GET ${reads.join(', GET ')}` : ' (the profile claims no directory: no read)'}; OBG_PROBE=0 skips it`;
}

/**
 * Before any test: is the target there at all? An application token and, where the profile claims
 * the directory, two directory reads (calls that need no resource). Nothing the profile does not
 * claim is called. The target is unavailable when no token can be had (refused, reset, timed out,
 * a 5xx or an HTML page at the token endpoint, or credentials it refuses) or when both reads
 * answer nothing usable (a transport error, a 5xx, a body that is not JSON). A target that
 * answers, however wrongly, is judged in full. Returns why it is unavailable, or undefined.
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
    { scope: 'aspspinformation' },
  );
  const problems: string[] = [];
  for (const path of reads) {
    try {
      const res = await api.get(path);
      if (res.status >= 500) problems.push(res.describe());
      else {
        res.json();
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
  return `${problems.join('; ')} (${probeLine(target)})`;
}
