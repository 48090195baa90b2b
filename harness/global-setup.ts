import { resolveTarget } from './config/target.js';
import { coordinator, limitsOf } from './http/limits.js';
import { probeLine, probeTarget } from './probe.js';
import { ENV } from './config/env-names.mjs';
import { internal, loadSettings, passOn } from './config/user-settings.mjs';

/**
 * Runs once before the workers start: a target that answers nothing usable is said so plainly
 * here and the run stops; the conformance reporter then judges every claimed requirement broken
 * at once ("target unavailable: …") instead of each check rediscovering it.
 */
export default async function globalSetup(): Promise<void> {
  // The profile's limits hold for the whole run: one coordinator here, served to the workers.
  const target = resolveTarget();
  const limits = limitsOf(target.profile);
  if (limits) passOn({ [ENV.limiter]: await coordinator(limits).serve() });
  if (target.profile.draft)
    console.log(
      `profile: ${target.profileName} is init's unreviewed draft ("draft": true): the verdict judges claims nobody has checked yet`,
    );
  // OBG_PROBE=0: judge every check on its own, even against a target that seems down.
  if (loadSettings().own.probe === '0') return;
  if (internal('quiet') !== '1') console.log(probeLine(target));
  const why = await probeTarget(target);
  if (why) {
    // The reporter (in this process) judges every claimed requirement broken for this reason.
    passOn({ [ENV.targetUnavailable]: why });
    throw new Error(`target unavailable: ${why}`);
  }
}
