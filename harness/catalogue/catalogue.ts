import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';
import { validatorOf } from '../config/ajv.js';
import { digestOf, readCached, writeCached } from '../config/cache.js';
import { fromRoot } from '../config/paths.js';

export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** Where a requirement's quote comes from. */
export type QuoteFrom = 'spec' | 'reference-facts';

/** The files a quote may come from, relative to the project root. */
export const QUOTE_FILES: Record<QuoteFrom, string> = {
  spec: 'spec/open-banking-gateway-api.md',
  'reference-facts': 'spec/reference-facts.md',
};

export interface Requirement {
  id: string;
  level: Level;
  section: string;
  features: string[];
  text: string;
  /**
   * The words the rule rests on, verbatim (up to whitespace) from the file `quoteFrom` names: the
   * sentence a reader needs to see to judge a verdict. Every entry has one (the lint reports a
   * missing quote, so the type keeps it optional for a catalogue that breaks the rule).
   */
  quote?: string;
  quoteFrom?: QuoteFrom;
  source?: 'spec' | 'bg' | 'vendor' | 'issue';
  noFault?: string;
  /**
   * Where a MUST's test pins a value or a whole object (the pin lint, harness/catalogue-pins.ts):
   * the sentence of the specification that fixes it, in a short note.
   */
  pins?: string;
  /** The catalogue file the entry comes from (requirements/<area>.yaml). */
  area: string;
}

export interface Catalogue {
  all: Requirement[];
  byId: Map<string, Requirement>;
  /**
   * Problems found while loading: a malformed file or entry, an id declared twice, a missing or
   * non-verbatim quote, a MUST that does not rest on a sentence of the specification stating it.
   */
  problems: string[];
}

/** Runs of whitespace become one space: quotes are compared "verbatim up to whitespace". */
export const collapseWhitespace = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The markers by which a quote states a rule, as opposed to describing or leaving something open.
 * Each is a plain, documented word test (see statesRule).
 */
export const RULE_MARKERS: readonly { marker: string; test: RegExp }[] = [
  { marker: 'must or required', test: /\b(must|required|mandatory|mandated|prerequisite|needs)\b/i },
  { marker: '"yes" in a field table', test: /\|\s*yes\s*\|/i },
  {
    marker: 'a stated type or format',
    test: /\b(string|boolean|integer|object|array|date|date-time|uuid|uri|ipv4|base64|pattern|form|content type)\b/,
  },
  { marker: 'a list of values', test: /`[^`]+`\s*(,|\bor\b|\band\b|\|)\s*`[^`]+`|\bone of\b/i },
  { marker: 'a number or limit', test: /\b(\d+|one|two|three|four|six|first|last|at most|at least|only)\b/i },
  {
    marker: 'a state or state move',
    test: /→|\b(received|valid|started|finalised|failed|psuAuthenticated|psuIdentified|RCVD|ACCP|ACTC|ACSC|RJCT)\b/,
  },
  { marker: 'what is returned', test: /\b(is|are) returned\b|\breturns\b|\bresponse\b/i },
  { marker: 'a stated restriction', test: /\b(every|always|never|not accepted|not affected|case-sensitive)\b/i },
];

/** The specification's Limits section (up to the next heading), whitespace collapsed. */
function limitsOf(spec: string): string {
  const from = spec.indexOf('## Limits');
  if (from < 0) return '';
  const to = spec.indexOf('## ', from + 3);
  return spec.slice(from, to < 0 ? undefined : to);
}

/**
 * Whether a quote states a rule that a MUST can rest on; returns the first marker found, or
 * undefined. The test, in this order:
 * 1. the quote must come from the specification (`quoteFrom: spec`), never from the reference
 *    facts: a rule resting only on those is at most a SHOULD;
 * 2. clauses that say the specification is silent ("…: not shown") are dropped first, so that
 *    "Which SEPA direct debit fields are required: not shown." states nothing;
 * 3. what is left must carry one of RULE_MARKERS (must or required, "| yes |" in a field table, a
 *    type or format, a list of values, a number or limit, a state or "→", "is returned" or a
 *    response, or a stated restriction such as "not accepted"), or be a row of the specification's
 *    Limits table (every row there is a limit).
 * It is a lexical check that the quote is the kind of sentence a MUST can rest on; whether it is
 * the right sentence is for the reader of the catalogue (and of the report, which shows it).
 */
export function statesRule(quote: string, from: QuoteFrom | undefined, specText: string): string | undefined {
  if (from !== 'spec') return undefined;
  const said = collapseWhitespace(quote.replace(/[^.;|:]*:\s*not shown\.?/gi, ' '));
  for (const { marker, test } of RULE_MARKERS) if (test.test(said)) return marker;
  const q = collapseWhitespace(quote);
  if (/^\|.*\|$/.test(q) && limitsOf(collapseWhitespace(specText)).includes(q)) return 'a row of the Limits table';
  return undefined;
}

/** The texts quotes are checked against, read once per load. */
function quoteSources(): Record<QuoteFrom, string> {
  return {
    spec: readFileSync(fromRoot(QUOTE_FILES.spec), 'utf8'),
    'reference-facts': readFileSync(fromRoot(QUOTE_FILES['reference-facts']), 'utf8'),
  };
}

const short = (s: string, n = 80) => {
  const c = collapseWhitespace(s);
  return c.length > n ? `${c.slice(0, n - 1)}…` : c;
};

/**
 * The lint of one entry's quote and level:
 * - it has a quote and says where the quote comes from;
 * - the quote occurs in that file verbatim, runs of whitespace collapsed on both sides (nothing else
 *   is ignored: case, punctuation, backticks and table pipes count);
 * - a MUST quotes the specification (not the reference facts) with a sentence that states the rule
 *   (statesRule), and does not name a source other than the specification.
 */
export function quoteProblems(
  file: string,
  entry: Omit<Requirement, 'area'>,
  sources: Record<QuoteFrom, string>,
): string[] {
  const problems: string[] = [];
  const where = `${file}: ${entry.id}`;
  if (entry.level === 'MUST' && entry.source && entry.source !== 'spec')
    problems.push(
      `${where} is a MUST whose rule comes from ${entry.source}: a rule resting only on reference facts, an RFC or an issue is at most a SHOULD`,
    );
  if (!entry.quote?.trim()) {
    problems.push(`${where} has no quote (quote: the words of the specification or reference facts it rests on)`);
    return problems;
  }
  if (!entry.quoteFrom) {
    problems.push(`${where} has a quote but no quoteFrom (spec or reference-facts)`);
    return problems;
  }
  const text = collapseWhitespace(sources[entry.quoteFrom]);
  if (!text.includes(collapseWhitespace(entry.quote)))
    problems.push(
      `${where}: the quote is not in ${QUOTE_FILES[entry.quoteFrom]} verbatim (up to whitespace): "${short(entry.quote)}"`,
    );
  else if (entry.level === 'MUST') {
    if (entry.quoteFrom !== 'spec')
      problems.push(
        `${where} is a MUST but quotes only ${QUOTE_FILES[entry.quoteFrom]}: a rule resting only on reference facts is at most a SHOULD (quote the specification, or make it a SHOULD)`,
      );
    else if (!statesRule(entry.quote, entry.quoteFrom, sources.spec))
      problems.push(
        `${where} is a MUST but its quote states no rule (no must or required, "yes", type, list of values, number or limit, state, response or restriction): "${short(entry.quote)}"`,
      );
  }
  return problems;
}

/**
 * requirements/not-judged.yaml: the normative sentences of the specification no requirement quotes,
 * each with the reason (harness/reporter/specification.ts). It holds no requirements.
 */
export const NOT_JUDGED_FILE = 'not-judged.yaml';

let cached: Catalogue | undefined;

/**
 * The catalogue of `dir`, parsed, validated and linted once per content (harness/config/cache.ts):
 * the key is the digest of every input of the load (the YAML files, the schema, the quoted texts
 * and this loader's own source).
 */
export function loadCatalogue(dir = fromRoot('requirements')): Catalogue {
  if (cached && dir === fromRoot('requirements')) return cached;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== NOT_JUDGED_FILE)
    .sort();
  const key = digestOf([
    ...files.map((f) => `${dir}/${f}`),
    fromRoot('requirements', 'requirement.schema.json'),
    fromRoot(QUOTE_FILES.spec),
    fromRoot(QUOTE_FILES['reference-facts']),
    fromRoot('harness', 'catalogue', 'catalogue.ts'),
  ]);
  const name = `catalogue-${key}.json`;
  const kept = readCached<Pick<Catalogue, 'all' | 'problems'>>(name);
  let catalogue: Catalogue;
  if (kept) catalogue = { ...kept, byId: new Map(kept.all.map((r) => [r.id, r])) };
  else {
    catalogue = readCatalogue(dir, files);
    writeCached(name, { all: catalogue.all, problems: catalogue.problems });
  }
  if (dir === fromRoot('requirements')) cached = catalogue;
  return catalogue;
}

/**
 * Reads every requirements/*.yaml, validating each against requirement.schema.json and linting
 * each entry's quote and level (quoteProblems).
 */
function readCatalogue(dir: string, files: string[]): Catalogue {
  const validate = validatorOf(fromRoot('requirements', 'requirement.schema.json'));
  const sources = quoteSources();
  const all: Requirement[] = [];
  const byId = new Map<string, Requirement>();
  const problems: string[] = [];
  // yaml only when the catalogue is read from its files: a run's workers read it from the cache.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  for (const file of files) {
    const area = basename(file, '.yaml');
    let data: unknown;
    try {
      data = parse(readFileSync(`${dir}/${file}`, 'utf8'));
    } catch (err) {
      problems.push(`${file}: not valid YAML: ${(err as Error).message}`);
      continue;
    }
    if (!validate(data)) {
      for (const e of validate.errors ?? []) problems.push(`${file}${e.instancePath}: ${e.message}`);
      continue;
    }
    for (const entry of data as Omit<Requirement, 'area'>[]) {
      if (byId.has(entry.id)) {
        problems.push(`${file}: ${entry.id} is declared twice (also in ${byId.get(entry.id)!.area}.yaml)`);
        continue;
      }
      problems.push(...quoteProblems(file, entry, sources));
      const req: Requirement = { ...entry, area };
      all.push(req);
      byId.set(req.id, req);
    }
  }
  return { all, byId, problems };
}

/** The level of requirement `id` in the catalogue; an unknown id throws. */
export function levelOf(id: string): Level {
  const r = loadCatalogue().byId.get(id);
  if (!r) throw new Error(`levelOf(): unknown requirement id "${id}" (not in requirements/*.yaml)`);
  return r.level;
}
