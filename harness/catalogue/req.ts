import type { TestDetails } from '@playwright/test';
import { loadCatalogue, type Level } from './catalogue.js';

const SEVERITY: Record<Level, string> = { MUST: 'critical', SHOULD: 'normal', MAY: 'minor' };
const SPEC = 'open-banking-gateway-api.md';

/** The annotation type under which a test names its requirements (read by the reporters). */
export const REQUIREMENT_ANNOTATION = 'requirement';

/**
 * The annotation type under which a passed refusal names its positive control: the requirement
 * that judges the same request made valid (harness/expect.ts). A test may name its own in its
 * details (`controlledBy`).
 */
export const CONTROL_ANNOTATION = 'control';

/**
 * The annotation type under which a test records each kind of request it saw accepted (a 2xx, with
 * the created id where the operation creates one: harness/operations/controls.ts `acceptedKind`):
 * what controls a refusal of that kind anywhere in the run.
 */
export const ACCEPTED_ANNOTATION = 'accepted';

/**
 * The annotation type under which a test names each kind of request it expected refused and did
 * not see accepted itself: the refusal is judged where a call of that kind was seen accepted
 * anywhere in the run (harness/reporter/fold.ts), else blocked by the kind's control.
 */
export const REFUSED_KIND_ANNOTATION = 'refused kind';

/**
 * The annotation type under which a test names what it could not judge beside its verdict, with the
 * root cause: an operation of a rule over operations whose prerequisites failed, judged on the others.
 */
export const NOT_JUDGED_ANNOTATION = 'not judged';

/** Details naming a test's positive control, for a refusal whose valid request another requirement judges. */
export const controlledBy = (id: string): TestDetails => ({
  annotation: [{ type: CONTROL_ANNOTATION, description: id }],
});

/** The tag a test carries for each requirement it names (`--grep @payments.initiate.response`). */
export const tagOf = (id: string) => `@${id}`;

/** A pattern (source) that matches a test carrying the tag of any of `ids`, in Playwright's grep title. */
export const tagPattern = (ids: string[]) =>
  `(${ids.map((id) => tagOf(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(\\s|$)`;

/**
 * Names the requirements a test checks: tags, annotations and Allure labels (epic = area,
 * feature = topic, story = id, severity from the level, a link to the section).
 * An unknown id throws at collection time, so a typo cannot hide a check.
 */
export function req(...ids: string[]): TestDetails {
  const catalogue = loadCatalogue();
  if (ids.length === 0) throw new Error('req(): name at least one requirement id');
  const annotation: NonNullable<TestDetails['annotation']> = [];
  const tags: string[] = [];
  let strongest: Level = 'MAY';
  for (const id of ids) {
    const r = catalogue.byId.get(id);
    if (!r) throw new Error(`req(): unknown requirement id "${id}" (not in requirements/*.yaml)`);
    tags.push(tagOf(id));
    annotation.push({ type: REQUIREMENT_ANNOTATION, description: id });
    annotation.push({ type: '@allure.label.story', description: id });
    annotation.push({ type: '@allure.label.feature', description: id.split('.').slice(0, 2).join('.') });
    annotation.push({ type: 'section', description: `${r.level} ${id}: ${SPEC} > ${r.section}` });
    if (r.level === 'MUST' || (r.level === 'SHOULD' && strongest === 'MAY')) strongest = r.level;
  }
  const area = catalogue.byId.get(ids[0])!.area;
  annotation.push({ type: '@allure.label.epic', description: area });
  annotation.push({ type: '@allure.label.severity', description: SEVERITY[strongest] });
  annotation.push({ type: '@allure.label.level', description: strongest });
  return { tag: tags, annotation };
}
