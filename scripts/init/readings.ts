// init, step 3 (drafting): the readings. Where the specification and Berlin Group differ, the
// profile can pin one: every reading option of the schema (a string enum in a section) is written
// "either" where the schema has it; the others keep the reference's value, with how to find the bank's.
import { profileSchema } from '../../profiles/profile.schema.js';
import type { ConsentFindings } from './consent.js';

const HOW: Record<string, string> = {
  'consents.afterDelete':
    'delete a consent and read its status: 200 with consentStatus terminatedByTpp → "terminatedByTpp"; 403 or 404 → "gone"',
  'payments.startAuthorisationBody':
    'create an authorisation on a payment without a body: a 2xx → "flow-guide"; a 4xx asking for psuData → "operations-table" (the bank\'s documentation of start authorisation says which)',
  'payments.giroCreditor':
    'the bank\'s documentation of a swedish-giro payment: creditorGiro → "creditorGiro"; a creditorAccount with a bban giro number → "creditorAccount"',
  'directDebit.consentScope':
    'the bank\'s documentation of the direct debit consent: the token scope it is created with (accountinformation corporate → "accountinformation"; paymentinitiation corporate, as section H says → "paymentinitiation")',
  'tokens.accountReads':
    'read an account under a valid consent with the application token: a 2xx → "application"; a 401 or 403 asking for the PSU\'s token → "psu"',
};

type Section = {
  properties?: Record<string, { enum?: readonly unknown[]; description?: string; default?: unknown }>;
};

/** Sets every "either" reading in the profile and returns the notes on every reading. */
export function readingNotes(profile: Record<string, unknown>, consent?: ConsentFindings): string[] {
  const notes: string[] = [];
  const sections = profileSchema.properties as unknown as Record<string, Section>;
  for (const [section, def] of Object.entries(sections)) {
    for (const [key, option] of Object.entries(def.properties ?? {})) {
      const values = option.enum?.filter((v): v is string => typeof v === 'string');
      const field = `${section}.${key}`;
      if (!values || field === 'sca.psuAgent') continue;
      const part = profile[section] as Record<string, unknown> | undefined;
      const readings = values.filter((v) => v !== 'either').join(', ');
      if (values.includes('either')) {
        ((profile[section] ??= {}) as Record<string, unknown>)[key] = 'either';
        notes.push(
          `- \`${field}\`: "either" (readings ${readings}): each answer is judged as the reading it gives. To pin one (the stricter check), write it here once the bank documents it or a run's evidence shows it.`,
        );
        continue;
      }
      // consents.afterDelete as the probe consent showed it (scripts/init/draft.ts), else the reference's.
      const seen =
        field === 'consents.afterDelete' && /^(403|404|410)\b|terminatedByTpp/.test(consent?.afterDelete ?? '');
      const kept =
        part?.[key] === undefined
          ? `absent: the schema's default${option.default === undefined ? '' : ` "${String(option.default)}"`} applies`
          : `"${String(part[key])}", ${seen ? 'as the probe consent showed' : "the reference sandbox's"}`;
      notes.push(
        `- \`${field}\`: ${kept} (readings ${readings}; no "either": the bank follows one). To find which: ${HOW[field] ?? option.description ?? 'see profiles/profile.schema.ts'}.`,
      );
    }
  }
  if (consent?.deleted)
    notes.push(
      `- seen on the probe consent: delete answered ${consent.deleted}; its status read after answered ${consent.afterDelete ?? 'nothing'}.`,
    );
  return notes;
}
