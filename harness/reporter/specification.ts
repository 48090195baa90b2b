import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  collapseWhitespace,
  loadCatalogue,
  NOT_JUDGED_FILE,
  QUOTE_FILES,
  type Catalogue,
  type Requirement,
} from '../catalogue/catalogue.js';
import { validatorOf } from '../config/ajv.js';
import { digestOf, readCached, writeCached } from '../config/cache.js';
import { fromRoot } from '../config/paths.js';
import { notJudgedOn, RESOURCE_RULES, type ResourceRule } from '../catalogue/resource-rules.js';
import type { AreaCoverage, Coverage } from './report.js';
import {
  clausesQuoted,
  readSpec,
  unitsQuoted,
  type SpecClause,
  type SpecText,
  type SpecUnit,
} from './spec-sentences.js';

/*
 * The specification as a coverage map. Its normative sentences and table rows (spec-sentences.ts)
 * are matched with every requirement's quote (up to whitespace, as the catalogue's lint) and with
 * requirements/not-judged.yaml, which explains, one by one, those no requirement quotes. A run
 * writes reports/specification.html (writeSpecificationMap) and carries the coverage figure in
 * conformance.json and conformance.md; `npm run catalogue` prints it per area.
 */
export { readSpec, type SpecClause, type SpecText, type SpecUnit } from './spec-sentences.js';
export type { AreaCoverage, Coverage } from './report.js';

/** Why a normative sentence no requirement quotes is not judged (requirements/not-judged.schema.json). */
export type NotJudgedReason =
  'not-observable' | 'client-side' | 'contradicted' | 'permissive' | 'no-rule' | 'judged-elsewhere' | 'not-yet-judged';

export const REASON_LABEL: Record<NotJudgedReason, string> = {
  'not-observable': 'not observable from outside',
  'client-side': 'client-side only',
  contradicted: 'contradicted by another sentence',
  permissive: 'leaves the bank free',
  'no-rule': 'states no rule',
  'judged-elsewhere': 'judged where the same rule is stated again',
  'not-yet-judged': 'not yet judged',
};

export interface NotJudged {
  sentence: string;
  /** One clause of the sentence or row (its words); none: every clause of it no requirement judges. */
  clause?: string;
  reason: NotJudgedReason;
  why: string;
  area: string;
}

/** Reads requirements/not-judged.yaml against its schema; a malformed file throws, naming the entry. */
export function loadNotJudged(file = fromRoot('requirements', NOT_JUDGED_FILE)): NotJudged[] {
  return loadList<NotJudged>(file, fromRoot('requirements', 'not-judged.schema.json'));
}

/** A YAML list checked against its schema; a list that passed is kept by its content (config/cache.ts): every run's reporter reads these. */
function loadList<T>(file: string, schema: string): T[] {
  if (!existsSync(file)) return [];
  const name = `list-${digestOf([file, schema])}.json`;
  const kept = readCached<T[]>(name);
  if (kept) return kept;
  const data: unknown = parse(readFileSync(file, 'utf8')) ?? [];
  const validate = validatorOf(schema);
  if (!validate(data))
    throw new Error(
      `${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`,
    );
  writeCached(name, data);
  return data as T[];
}

/**
 * spec/clauses.yaml: the clauses of the units the splitting rule (clausePieces) does not
 * part as their rules are, and, for a requirement whose quote takes several clauses of a unit (a
 * whole row), which of them it judges.
 */
export interface ClauseList {
  /** The sentence or table row, as it stands (whitespace collapsed when matched). */
  unit: string;
  /** Every clause of the unit, in order: its words, and the requirements quoting several clauses that judge it. */
  clauses: { text: string; judgedBy?: string[] }[];
}

export const CLAUSES_FILE = 'spec/clauses.yaml';

/** Reads spec/clauses.yaml against its schema (spec/clauses.schema.json). */
export function loadClauseLists(file = fromRoot(CLAUSES_FILE)): ClauseList[] {
  return loadList<ClauseList>(file, fromRoot('spec', 'clauses.schema.json'));
}

/** One clause of a normative unit of the specification, with what judges or explains it. */
export interface UnitCoverage {
  unit: SpecUnit;
  clause: SpecClause;
  /** The requirements judging it: whose quote touches it alone of its unit's clauses, or names it in clauses.yaml. */
  requirements: Requirement[];
  /** Its entry in the not-judged list, if any. */
  notJudged?: NotJudged;
  /**
   * The rules it states for several resources that are judged on some only
   * (harness/catalogue/resource-rules.ts): the resources they are not judged on, and why.
   */
  partly?: { rule: string; notOn: { resource: string; why: string }[] }[];
}

export interface SpecMap {
  spec: SpecText;
  /** The requirements the map was made of (the catalogue's). */
  requirements: Requirement[];
  /** Every clause of every unit, by the clause's id. */
  units: Map<string, UnitCoverage>;
  coverage: Coverage;
}

const percent = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 100);

/** What matching finds wrong: entries that match nothing, quotes that judge no clause, names and entries gone stale. */
interface Findings {
  unknown: string[];
  unattributed: string[];
  stale: string[];
}

/** The units of the specification by their text (whitespace collapsed). */
function unitsByText(spec: SpecText): Map<string, SpecUnit[]> {
  const byText = new Map<string, SpecUnit[]>();
  for (const u of spec.units) {
    const k = collapseWhitespace(u.text);
    byText.set(k, [...(byText.get(k) ?? []), u]);
  }
  return byText;
}

/** Which clauses of which unit a requirement is named for in clauses.yaml, by "<unit id> <requirement id>". */
function namedClauses(
  clauseLists: ClauseList[],
  byText: Map<string, SpecUnit[]>,
  found: Findings,
): Map<string, Set<string>> {
  const namedFor = new Map<string, Set<string>>();
  for (const l of clauseLists) {
    const us = byText.get(collapseWhitespace(l.unit)) ?? [];
    if (!us.length)
      found.unknown.push(`${CLAUSES_FILE}: ${collapseWhitespace(l.unit)} (no such sentence or table row)`);
    for (const u of us)
      l.clauses.forEach((c, k) => {
        if (!u.clauses[k]) {
          found.unknown.push(`${CLAUSES_FILE}: ${collapseWhitespace(l.unit)} has no clause ${k + 1} (${c.text})`);
          return;
        }
        for (const id of c.judgedBy ?? []) {
          const key = `${u.id} ${id}`;
          if (!namedFor.has(key)) namedFor.set(key, new Set());
          namedFor.get(key)!.add(u.clauses[k].id);
        }
      });
  }
  return namedFor;
}

/** Puts each requirement on the clauses its quote judges; a name of clauses.yaml no quote uses is stale. */
function attributeQuotes(
  requirements: Requirement[],
  spec: SpecText,
  units: Map<string, UnitCoverage>,
  namedFor: Map<string, Set<string>>,
  found: Findings,
): void {
  const used = new Set<string>();
  for (const r of requirements)
    if (r.quoteFrom === 'spec' && r.quote)
      for (const u of unitsQuoted(spec, r.quote)) {
        const touched = clausesQuoted(spec, u, r.quote);
        const named = namedFor.get(`${u.id} ${r.id}`);
        if (named) used.add(`${u.id} ${r.id}`);
        const judged = touched.length === 1 ? touched : touched.filter((c) => named?.has(c.id));
        if (!judged.length)
          found.unattributed.push(
            `${r.id} quotes ${touched.length} clauses of ${u.id} (${collapseWhitespace(u.text)}): say in ${CLAUSES_FILE} which it judges`,
          );
        for (const c of judged) units.get(c.id)!.requirements.push(r);
      }
  // A name whose requirement no longer quotes the unit (or is gone) judges nothing: reported, as a stale entry.
  for (const key of namedFor.keys())
    if (!used.has(key)) {
      const [uid, rid] = key.split(' ');
      found.stale.push(`${CLAUSES_FILE}: ${rid} is named at ${uid}, but no quote of it touches ${uid}`);
    }
}

/** Puts each entry of the not-judged list on the clauses it names that no requirement judges. */
function applyNotJudged(
  notJudged: NotJudged[],
  byText: Map<string, SpecUnit[]>,
  units: Map<string, UnitCoverage>,
  found: Findings,
): void {
  for (const entry of notJudged) {
    const us = (byText.get(collapseWhitespace(entry.sentence)) ?? []).filter((u) => u.markers.length);
    const where = `${collapseWhitespace(entry.sentence)}${entry.clause ? ` [${entry.clause}]` : ''}`;
    if (!us.length) {
      const known = byText.has(collapseWhitespace(entry.sentence));
      found.unknown.push(`${where} (${known ? 'not a normative sentence' : 'no such sentence or table row'})`);
      continue;
    }
    for (const u of us) {
      const cs = entry.clause
        ? u.clauses.filter((c) => collapseWhitespace(c.text) === collapseWhitespace(entry.clause!))
        : u.clauses;
      if (!cs.length) {
        found.unknown.push(`${where} (no such clause: ${u.clauses.map((c) => c.text).join(' / ')})`);
        continue;
      }
      const covered = cs.map((c) => units.get(c.id)!);
      const open = covered.filter((c) => !c.requirements.length);
      for (const c of open) c.notJudged = entry;
      if (!open.length)
        found.stale.push(
          `${where} (judged by ${[...new Set(covered.flatMap((c) => c.requirements.map((r) => r.id)))].join(', ')})`,
        );
    }
  }
}

/**
 * Marks the clauses that state a rule for several resources judged on some of them only: partly
 * judged, with the resources left and why (the clause still counts as judged where a requirement
 * quotes it, but the map says on what it is not).
 */
function markPartlyJudged(rules: ResourceRule[], spec: SpecText, units: Map<string, UnitCoverage>): void {
  for (const r of rules) {
    const notOn = notJudgedOn(r);
    if (!notOn.length) continue;
    for (const u of unitsQuoted(spec, r.sentence))
      for (const c of clausesQuoted(spec, u, r.sentence)) {
        const cov = units.get(c.id)!;
        cov.partly = [...(cov.partly ?? []), { rule: r.rule, notOn }];
      }
  }
}

/** The coverage figures of the matched clauses: judged, explained and neither, in all and per area. */
function countCoverage(units: Map<string, UnitCoverage>, found: Findings): Coverage {
  const normative = [...units.values()].filter((c) => c.unit.markers.length);
  const judged = normative.filter((c) => c.requirements.length);
  const explained = normative.filter(
    (c) => !c.requirements.length && c.notJudged && c.notJudged.reason !== 'not-yet-judged',
  );
  const open = normative.filter((c) => !c.requirements.length && !explained.includes(c));
  const byArea: Record<string, AreaCoverage> = {};
  const count = (area: string, k: keyof AreaCoverage) => {
    byArea[area] ??= { normative: 0, judged: 0, explained: 0, notExplained: 0 };
    byArea[area][k]++;
  };
  for (const c of normative) {
    const areas = c.requirements.length
      ? [...new Set(c.requirements.map((r) => r.area))]
      : [c.notJudged?.area ?? '(no area)'];
    for (const a of areas) {
      count(a, 'normative');
      count(a, c.requirements.length ? 'judged' : explained.includes(c) ? 'explained' : 'notExplained');
    }
  }
  return {
    normative: normative.length,
    judged: judged.length,
    explained: explained.length,
    judgedPercent: percent(judged.length, normative.length),
    judgedOrExplainedPercent: percent(judged.length + explained.length, normative.length),
    byArea: Object.fromEntries(Object.entries(byArea).sort(([a], [b]) => a.localeCompare(b))),
    notExplained: open.map((c) => ({
      id: c.clause.id,
      section: c.unit.section,
      sentence: c.unit.text,
      ...(c.unit.clauses.length > 1 ? { clause: c.clause.text } : {}),
      markers: c.unit.markers,
      ...(c.notJudged ? { why: c.notJudged.why } : {}),
    })),
    partly: normative
      .filter((c) => c.requirements.length && c.partly?.length)
      .map((c) => ({
        id: c.clause.id,
        section: c.unit.section,
        sentence: c.unit.text,
        ...(c.unit.clauses.length > 1 ? { clause: c.clause.text } : {}),
        rules: c.partly!,
      })),
    unattributed: found.unattributed,
    stale: found.stale,
    unknown: found.unknown,
  };
}

/**
 * Matches quotes and the not-judged list onto the specification's clauses and counts the coverage.
 * A requirement judges a clause its quote touches when that is the only clause of the unit its
 * quote touches; a quote that takes several clauses of a unit judges those clauses.yaml names it
 * for (none, listed as unattributed, when it names it for none).
 */
export function mapSpecification(
  catalogue: Pick<Catalogue, 'all'> = loadCatalogue(),
  notJudged: NotJudged[] = loadNotJudged(),
  markdown = readFileSync(fromRoot(QUOTE_FILES.spec), 'utf8'),
  clauseLists: ClauseList[] = loadClauseLists(),
  resourceRules: ResourceRule[] = RESOURCE_RULES,
): SpecMap {
  const explicit = new Map(clauseLists.map((l) => [collapseWhitespace(l.unit), l.clauses.map((c) => c.text)]));
  const spec = readSpec(markdown, undefined, explicit);
  const units = new Map<string, UnitCoverage>();
  for (const u of spec.units) for (const c of u.clauses) units.set(c.id, { unit: u, clause: c, requirements: [] });
  const found: Findings = { unknown: [], unattributed: [], stale: [] };
  const byText = unitsByText(spec);
  const namedFor = namedClauses(clauseLists, byText, found);
  attributeQuotes(catalogue.all, spec, units, namedFor, found);
  applyNotJudged(notJudged, byText, units, found);
  markPartlyJudged(resourceRules, spec, units);
  return { spec, requirements: catalogue.all, units, coverage: countCoverage(units, found) };
}

/**
 * The map for the run's reports; a not-judged list or a specification that cannot be read is said
 * on stderr and the run's reports go without the map (it judges the catalogue, not the target).
 */
export function mapSpecificationOrSay(): SpecMap | undefined {
  try {
    return mapSpecification();
  } catch (err) {
    console.error(`conformance: no specification map: ${(err as Error).message}`);
    return undefined;
  }
}

/** How many of the judged clauses are judged on some of the resources they name only, when any. */
export const partlyCount = (c: Pick<Coverage, 'partly'>) =>
  c.partly?.length ? `, ${c.partly.length} of them partly` : '';

/** The coverage figure in one line, as `npm run conformance` prints it. */
export function coverageLine(c: Coverage): string {
  return (
    `specification: ${c.judged} of ${c.normative} normative clauses judged (${c.judgedPercent} %${partlyCount(c)}), ` +
    `${c.explained} explained, ${c.notExplained.length} neither: ${c.judgedOrExplainedPercent} % judged or explained`
  );
}

/** The coverage section of conformance.md. */
export function coverageMarkdown(c: Coverage): string[] {
  const out = [
    '## Specification coverage',
    '',
    `${coverageLine(c).replace(/^specification: /, '')}. The map: \`specification.html\`.`,
    '',
    '| Area | Normative clauses | Judged | Explained | Neither |',
    '|---|---|---|---|---|',
    ...Object.entries(c.byArea).map(
      ([a, v]) => `| ${a} | ${v.normative} | ${v.judged} | ${v.explained} | ${v.notExplained} |`,
    ),
    `| **all** | **${c.normative}** | **${c.judged}** | **${c.explained}** | **${c.notExplained.length}** |`,
    '',
  ];
  if (c.partly?.length) {
    out.push('Judged clauses partly judged (a rule judged on some of the resources it names only):', '');
    for (const p of c.partly)
      for (const r of p.rules)
        out.push(
          `- ${p.section}: ${p.clause ? `\`\` ${collapseWhitespace(p.clause)} \`\` in ` : ''}\`\` ${collapseWhitespace(p.sentence)} \`\` (${r.rule}): not on ${r.notOn.map((n) => `${n.resource}, because ${n.why}`).join('; ')}`,
        );
    out.push('');
  }
  if (c.notExplained.length) {
    out.push('Normative clauses neither judged nor explained:', '');
    for (const n of c.notExplained)
      // A code span of two backticks holds the sentence's own backticks as they stand.
      out.push(
        `- ${n.section}: ${n.clause ? `\`\` ${collapseWhitespace(n.clause)} \`\` in ` : ''}\`\` ${collapseWhitespace(n.sentence)} \`\`${n.why ? ` (${n.why})` : ''}`,
      );
    out.push('');
  }
  return out;
}
