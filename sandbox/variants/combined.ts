import type { ProfileClaims } from '../../profiles/profile.schema.js';
import declineVariants from './declines.js';
import exactVariants from './exact.js';
import freedomVariants from './freedoms.js';
import lateStatusVariants from './late-status.js';
import omittedVariants from './omitted.js';
import type { Variant } from './variant.js';

/*
 * Freedoms at once: one bank that takes every combinable freedom of one kind. The minimal bank
 * leaves out every listed field, declines every value a bank may decline and reports a consent
 * valid a moment after its SCA; the maximal bank carries fields of its own everywhere and takes
 * every lenient form; a third bank combines freedoms drawn from both lists by a seed (the UTC
 * day's number), which its description names with the combination, so that a failure replays.
 */

const ALL = [...omittedVariants, ...declineVariants, ...exactVariants, ...lateStatusVariants, ...freedomVariants];

const byId = (ids: readonly string[]): Variant[] =>
  ids.map((id) => {
    const v = ALL.find((x) => x.id === id);
    if (!v) throw new Error(`combined variant: unknown part "${id}"`);
    return v;
  });

/** The claims of several variants, section by section. */
function mergedClaims(parts: Variant[]): ProfileClaims | undefined {
  const out: Record<string, Record<string, unknown>> = {};
  for (const p of parts)
    for (const [section, value] of Object.entries(p.claims ?? {}))
      out[section] = { ...(out[section] ?? {}), ...(value as Record<string, unknown>) };
  return Object.keys(out).length ? (out as ProfileClaims) : undefined;
}

/** One variant made of `parts`: every part installed, their concerns, warns and claims together. */
export function combined(id: string, description: string, parts: Variant[]): Variant {
  const claims = mergedClaims(parts);
  return {
    id,
    description: `${description}: ${parts.map((p) => p.id).join(', ')}`,
    allows: parts.map((p) => `${p.id}: ${p.allows}`).join(' / '),
    concerns: [...new Set(parts.flatMap((p) => p.concerns))],
    warns: [...new Set(parts.flatMap((p) => p.warns))],
    ...(claims ? { claims } : {}),
    install: (app) => parts.forEach((p) => p.install(app)),
  };
}

/** The minimal bank's freedoms: every listed field left out, every may-decline value declined, a status a moment late. */
export const MINIMAL = [
  'omitted.consents',
  'omitted.payments',
  'omitted.signing-baskets',
  'omitted.authorisations',
  'omitted.direct-debit',
  'accounts.links-left-out',
  'accounts.transactions-without-id',
  'consents.combined-sessions-declined',
  'consents.other-accounts-declined',
  'payments.execution-dates-45-days-business-days',
  'payments.amounts-two-decimals',
  'payments.address-berlin-group-limits',
  'direct-debit.lead-time-14-days',
  'direct-debit.epc-rules',
  'headers.affiliated-bank-holds-other-psus',
  'consents.valid-a-moment-after-sca',
] as const;

/** The maximal bank's freedoms: fields of its own in every answer, every lenient form taken. */
export const MAXIMAL = [
  'fields.proprietary',
  'payments.iso-basic-dates-accepted',
  'direct-debit.local-instrument-any-case',
  'headers.x-request-id-read-leniently',
  'headers.digest-ignored-when-unsigned',
] as const;

/** A seeded draw of `count` ids from `ids` (a linear congruential generator: the same seed, the same draw). */
export function drawn(ids: readonly string[], seed: number, count: number): string[] {
  const left = [...ids];
  const out: string[] = [];
  let s = seed >>> 0;
  while (out.length < count && left.length) {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    out.push(...left.splice(s % left.length, 1));
  }
  return out.sort();
}

/** The seed of the drawn bank: the UTC day's number (every self-proof of a day draws the same). */
export const COMBINATION_SEED = Math.floor(Date.now() / 86_400_000);

const variants: Variant[] = [
  combined('combined.minimal-bank', 'every combinable freedom of a minimal bank at once', byId(MINIMAL)),
  combined('combined.maximal-bank', 'every combinable freedom of a maximal bank at once', byId(MAXIMAL)),
  combined(
    'combined.drawn',
    `four freedoms drawn with seed ${COMBINATION_SEED} (the UTC day)`,
    byId(drawn([...MINIMAL, ...MAXIMAL], COMBINATION_SEED, 4)),
  ),
];

export default variants;
