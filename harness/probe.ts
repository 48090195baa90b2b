import type { Target } from './config/target.js';
import { BROKEN_MARK, TargetBroken } from './http/broken.js';
import { ApiClient } from './http/client.js';
import { TokenCache } from './tokens.js';

/** Set by the run's global setup, for the conformance reporter, when the target answers nothing usable. */
export const UNAVAILABLE_ENV = 'OBG_TARGET_UNAVAILABLE';

/**
 * Before any test: is the target there at all? An application token and two directory reads
 * (the calls every other check starts from). The target is unavailable when no token can be had
 * (refused, reset, timed out, a 5xx or an HTML page at the token endpoint, or credentials it
 * refuses) or when both reads answer nothing usable (a transport error, a 5xx, a body that is
 * not JSON). A target that answers, however wrongly, is judged in full. Returns why it is
 * unavailable, or undefined.
 */
export async function probeTarget(target: Target): Promise<string | undefined> {
  const tokens = new TokenCache(target);
  const api = new ApiClient(
    target,
    () => {},
    (scope) => tokens.get(scope),
    { scope: 'aspspinformation' },
  );
  const problems: string[] = [];
  for (const path of [target.profile.paths.aspsps, target.profile.paths.countries]) {
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
  return problems.join('; ');
}
