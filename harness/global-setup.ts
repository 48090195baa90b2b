import { resolveTarget } from './config/target.js';
import { probeTarget, UNAVAILABLE_ENV } from './probe.js';

/**
 * Runs once before the workers start: a target that answers nothing usable is said so plainly
 * here, and every check of the run is then broken at once ("target unavailable: …") instead of
 * each rediscovering it. The workers inherit the verdict through the environment.
 */
export default async function globalSetup(): Promise<void> {
  // OBG_PROBE=0: judge every check on its own, even against a target that seems down.
  if (process.env.OBG_PROBE === '0') return;
  const why = await probeTarget(resolveTarget());
  if (why) {
    process.env[UNAVAILABLE_ENV] = why;
    console.error(`conformance: target unavailable: ${why}`);
  }
}
