import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { QUOTE_FILES, type Catalogue } from './catalogue.js';
import { fromRoot } from '../config/paths.js';

/**
 * The pin lint: a MUST judges what its quote states, so a test of a MUST that pins more than the
 * words give is reported unless the catalogue entry names, in `pins:`, the sentence that fixes it.
 *
 * A static scan of the test sources, honest about its reach. Each spec file under tests/ is cut
 * into the stretches that follow each literal `req('<id>', ...)` (a test's body follows its
 * requirement ids up to the next test's); ids built from data are not seen. In the stretch of a
 * MUST it reports:
 *
 * - whole-object equality: `expect(S).toEqual(E)` or `.toStrictEqual(E)` where S or E is a response
 *   body or an object taken whole from one: an expression ending in `.json()` (optionally
 *   `.json<T>()`) with property accesses after it, or a name declared in the stretch from such an
 *   expression (`const x = res.json().a`, `const { a, ...rest } = res.json()`). Comparisons of
 *   derived values (key lists, sorted ids, `expect.any(...)`, `[]`) are not reported;
 * - a schema `const` on a value the specification only shows: a `const:` in the source of a schema
 *   the stretch names in `toMatchSchema('<area>/<name>')`, or of a schema it reaches by `$ref`,
 *   whose value the specification names only on lines that say values are "seen", or nowhere.
 *
 * - a literal value: `.toBe('<value>')` on a value the specification only shows (as above), such
 *   as a status only reference facts name;
 * - a status code: `toHaveStatus`, `toBeRefused` or `toBeTppError` given a literal code or list
 *   of codes (a MUST judges the class: the code is a paired SHOULD's);
 * - a time window: `expect.poll(…)` with a literal `timeout` that waits for a value (`toBe`,
 *   `toEqual`, `toMatch`): a deadline the specification names nowhere (a wait from the profile,
 *   `timeouts.scaMs`, is not literal);
 * - a minimum count: a `minItems` in a schema the stretch names (or reaches by `$ref`) on a field
 *   no line of the specification calls non-empty;
 * - a listed field required: `expect(Array.isArray(<x>.<field>)…)`, `toHaveProperty('<field>')`
 *   or `expect(<x>.<field>).toBeDefined()` on a field the specification only lists (no line naming
 *   it says required, yes, always, must or non-empty);
 * - a list asserted non-empty: `expect(<x>.<field>.length).toBeGreaterThan(0)`, `.not.toHaveLength(0)`
 *   or a subject holding `<x>.<field>.length > 0`, on a field no line calls non-empty;
 * - a schema's `required` (in a schema the stretch names, or reaches by `$ref`) on a field the
 *   specification only lists: every line naming it is a resource table's row listing fields.
 *
 * - a generated valid value outside the must-accept space: a property of the generated phase whose
 *   stretch reaches (by name, through the generated phase's sources) a generator of valid cases
 *   that draws a value harness/areas/value-spaces.ts lists as may-decline, and does not reach the
 *   decline judgement (`declinedOnce`). Which generators draw such values is not read from the
 *   source: the caller draws from each (selftest/unit/generated-value-spaces.spec.ts) and hands
 *   over what it found (generatedValuePins).
 *
 * It does not see a pin written another way (an `enum`, a helper that compares whole objects, a
 * required field named another way), nor a test that names its requirement through a variable.
 */

export type PinKind =
  | 'whole-object equality'
  | 'schema const'
  | 'literal value'
  | 'status code'
  | 'time window'
  | 'minimum count'
  | 'listed field required'
  | 'generated valid value';

export interface PinFinding {
  id: string;
  kind: PinKind;
  /** The spec file, or the schema file, where the pin stands. */
  file: string;
  /** The code that pins, shortened. */
  detail: string;
}

/** The text of the first argument of the call whose '(' is at `open`, and the index after its ')'. */
function firstArgument(text: string, open: number): { arg: string; end: number } | undefined {
  const call = callText(text, open);
  return call && { arg: call.args.slice(0, call.firstComma < 0 ? undefined : call.firstComma).trim(), end: call.end };
}

const JSON_BODY = /\.json(<[^()]*>)?\(\)(\s*\??\.\s*[\w$]+|\[[^\]]+\])*$/;

/** Names a stretch declares from a response body taken whole (or a part of it taken whole). */
function responseNames(stretch: string): Set<string> {
  const names = new Set<string>();
  const decl = /\b(?:const|let)\s+(\{[^}]*\}|[\w$]+)\s*=\s*([^;]+);/g;
  for (const m of stretch.matchAll(decl)) {
    const rhs = m[2].trim();
    if (!JSON_BODY.test(rhs)) continue;
    if (m[1].startsWith('{')) {
      const rest = /\.\.\.\s*([\w$]+)/.exec(m[1]);
      if (rest) names.add(rest[1]);
    } else names.add(m[1]);
  }
  return names;
}

const isWhole = (expr: string, names: Set<string>) => JSON_BODY.test(expr) || names.has(expr);

/** The whole-object equalities of one stretch of test code. */
export function equalityPins(stretch: string): string[] {
  const names = responseNames(stretch);
  const out: string[] = [];
  for (const m of stretch.matchAll(/\bexpect(?:\.soft)?\s*\(/g)) {
    const subject = firstArgument(stretch, m.index! + m[0].length - 1);
    if (!subject) continue;
    const after = /^\s*\.\s*(toEqual|toStrictEqual)\s*\(/.exec(stretch.slice(subject.end));
    if (!after) continue;
    const expected = firstArgument(stretch, subject.end + after[0].length - 1);
    if (!expected) continue;
    // An asymmetric matcher (expect.any, expect.arrayContaining, ...) judges a type or a part.
    if (/^expect\s*\./.test(expected.arg)) continue;
    if (isWhole(subject.arg, names) || isWhole(expected.arg, names))
      out.push(`expect(${subject.arg}).${after[1]}(${expected.arg})`.replace(/\s+/g, ' ').slice(0, 160));
  }
  return out;
}

/**
 * The text of the call whose '(' is at `open` (its arguments, without the parentheses), the index
 * after its ')', and where in `args` its first top-level comma stands (-1: one argument).
 */
function callText(text: string, open: number): { args: string; end: number; firstComma: number } | undefined {
  let depth = 0;
  let firstComma = -1;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return { args: text.slice(open + 1, i), end: i + 1, firstComma };
    } else if (ch === ',' && depth === 1 && firstComma < 0) firstComma = i - open - 1;
  }
  return undefined;
}

const short = (code: string) => code.replace(/\s+/g, ' ').slice(0, 160);

/** `.toBe('<value>')` (not negated) on a value the specification only shows. */
export function literalPins(stretch: string, specText: string): string[] {
  return [...stretch.matchAll(/(\.not)?\s*\.toBe\(\s*(['"])([^'"]+)\2\s*\)/g)]
    .filter((m) => !m[1] && onlyShown(m[3], specText))
    .map((m) => short(`toBe(${m[2]}${m[3]}${m[2]})`));
}

/** A refusal or status matcher given a literal code or list of codes. */
export function codePins(stretch: string): string[] {
  return [
    ...stretch.matchAll(/\.(toHaveStatus|toBeRefused|toBeTppError)\(\s*(\[\s*\d{3}(?:\s*,\s*\d{3})*\s*\]|\d{3})/g),
  ].map((m) => short(`${m[1]}(${m[2]}`));
}

/** `expect.poll(…)` with a literal timeout, waiting for a value. */
export function windowPins(stretch: string): string[] {
  const out: string[] = [];
  for (const m of stretch.matchAll(/\bexpect\s*\.\s*poll\s*\(/g)) {
    const call = callText(stretch, m.index! + m[0].length - 1);
    if (!call) continue;
    const timeout = /\btimeout:\s*(\d[\d_]*)\b/.exec(call.args);
    const matcher = /^\s*(?:\.\s*not\s*)?\.\s*(toBe|toEqual|toMatch|toContain)\s*\(/.exec(stretch.slice(call.end));
    if (timeout && matcher) out.push(short(`expect.poll(…, { timeout: ${timeout[1]} }).${matcher[1]}(…)`));
  }
  return out;
}

/** Whether some line of the specification naming `field` calls it required, always given or non-empty. */
function stated(field: string, specText: string, words: RegExp): boolean {
  const word = new RegExp(`(^|[^\\w])${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`);
  return specText.split('\n').some((line) => word.test(line) && words.test(line));
}
const NON_EMPTY = /non-empty|at least one/i;
const REQUIRED = /\brequired\b|\|\s*yes\s*\||\balways\b|\bmandatory\b|\bmust\b|non-empty/i;

/** `minItems` in the schemas a stretch names (and those they reach), on a field the specification never calls non-empty. */
export function minItemsPins(stretch: string, schemasDir: string, root: string, specText: string) {
  const out: { file: string; detail: string }[] = [];
  for (const m of stretch.matchAll(/toMatchSchema\(\s*'([^']+)'/g))
    for (const file of schemaSources(m[1], schemasDir))
      for (const c of readFileSync(file, 'utf8').matchAll(/(\w+):\s*\{[^{}]*\bminItems:\s*(\d+)/g))
        if (!stated(c[1], specText, NON_EMPTY))
          out.push({ file: relative(root, file), detail: `${m[1]}: ${c[1]} minItems ${c[2]}` });
  return out;
}

/** A listed field's presence asserted: Array.isArray(x.f) in an expect subject, toHaveProperty('f'), expect(x.f).toBeDefined(). */
export function presencePins(stretch: string, specText: string): string[] {
  const fields: string[] = [];
  for (const m of stretch.matchAll(/\bexpect(?:\.soft)?\s*\(/g)) {
    const subject = firstArgument(stretch, m.index! + m[0].length - 1);
    if (!subject) continue;
    for (const a of subject.arg.matchAll(/Array\.isArray\(\s*[\w$.?]*\.([\w$]+)\s*\)/g)) fields.push(a[1]);
    const last = /\.([\w$]+)\s*$/.exec(subject.arg)?.[1];
    if (last && /^\s*\.\s*toBeDefined\s*\(/.test(stretch.slice(subject.end))) fields.push(last);
  }
  for (const m of stretch.matchAll(/\.toHaveProperty\(\s*'([\w$]+)'/g)) fields.push(m[1]);
  return [...new Set(fields)].filter((f) => !stated(f, specText, REQUIRED)).map((f) => `${f} asserted present`);
}

/**
 * A list asserted non-empty: `expect(<x>.<field>.length).toBeGreaterThan(0)` (or
 * `toBeGreaterThanOrEqual(1)`, `.not.toHaveLength(0)`), or an expect subject holding
 * `<x>.<field>.length > 0` (`>= 1`), on a field no line of the specification calls non-empty.
 */
export function nonEmptyPins(stretch: string, specText: string): string[] {
  const fields: string[] = [];
  for (const m of stretch.matchAll(/\bexpect(?:\.soft)?\s*\(/g)) {
    const subject = firstArgument(stretch, m.index! + m[0].length - 1);
    if (!subject) continue;
    const after = stretch.slice(subject.end);
    const counted = /\.([\w$]+)\s*\??\.\s*length\s*$/.exec(subject.arg)?.[1];
    if (counted && /^\s*\.\s*(toBeGreaterThan\(\s*0\s*\)|toBeGreaterThanOrEqual\(\s*1\s*\))/.test(after))
      fields.push(counted);
    const listed = /\.([\w$]+)\s*$/.exec(subject.arg)?.[1];
    if (listed && /^\s*\.\s*not\s*\.\s*toHaveLength\(\s*0\s*\)/.test(after)) fields.push(listed);
    for (const c of subject.arg.matchAll(/\.([\w$]+)\s*\??\.\s*length\s*(>\s*0|>=\s*1)/g)) fields.push(c[1]);
  }
  return [...new Set(fields)].filter((f) => !stated(f, specText, NON_EMPTY)).map((f) => `${f} asserted non-empty`);
}

/**
 * Whether the specification only lists `field`: every line naming it is a row of a resource table
 * that lists fields (a second cell of several, comma-separated), and none calls it required.
 */
function onlyListed(field: string, specText: string): boolean {
  const word = new RegExp(`(^|[^\\w])${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`);
  const lines = specText.split('\n').filter((line) => word.test(line));
  return lines.length > 0 && lines.every((line) => /^\|[^|]+\|[^|]*,[^|]*\|/.test(line) && !REQUIRED.test(line));
}

/** A schema's `required` (in the schemas a stretch names, and those they reach) on a field the specification only lists. */
export function requiredPins(stretch: string, schemasDir: string, root: string, specText: string) {
  const out: { file: string; detail: string }[] = [];
  for (const m of stretch.matchAll(/toMatchSchema\(\s*'([^']+)'/g))
    for (const file of schemaSources(m[1], schemasDir))
      for (const r of readFileSync(file, 'utf8').matchAll(/\brequired:\s*\[([^\]]*)\]/g))
        for (const f of r[1].matchAll(/'([\w$]+)'/g))
          if (onlyListed(f[1], specText)) out.push({ file: relative(root, file), detail: `${m[1]}: ${f[1]} required` });
  return out;
}

/** Every spec file under `dir`, recursively. */
function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specFiles(join(dir, e.name)) : e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
}

/** For each requirement id named by a literal req(...), the stretches of test code that follow it. */
export function stretchesById(files: string[]): Map<string, { file: string; text: string }[]> {
  const out = new Map<string, { file: string; text: string }[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // A stretch ends where the next req(...) begins, literal or not: a test naming its
    // requirement through a variable is not seen, and not read as the previous test's body.
    const calls = [...text.matchAll(/\breq\(\s*((?:'[^']+'\s*,?\s*)+\))?/g)];
    calls.forEach((m, i) => {
      if (!m[1]) return;
      const stretch = text.slice(m.index!, calls[i + 1]?.index ?? text.length);
      for (const id of [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]))
        out.set(id, [...(out.get(id) ?? []), { file, text: stretch }]);
    });
  }
  return out;
}

/** The source file of schema `<area>/<name>` and of every schema it reaches by $ref. */
function schemaSources(name: string, schemasDir: string): string[] {
  const seen = new Set<string>();
  const queue = [join(schemasDir, `${name}.ts`)];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/\$ref:\s*'([^'#]+)\.json'/g))
      queue.push(join(dirname(file), `${m[1]}.ts`));
  }
  return [...seen];
}

/**
 * Whether the specification only shows `value`: every line naming it (as a word) says values are
 * "seen", or no line names it at all. A value a line states (a state table's row, a field's rule)
 * is not only shown.
 */
export function onlyShown(value: string, specText: string): boolean {
  const word = new RegExp(`(^|[^\\w])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`);
  return specText
    .split('\n')
    .filter((line) => word.test(line))
    .every((line) => /\bseen\b/i.test(line));
}

/** The `const:` pins, on values the specification only shows, of the schemas a stretch matches bodies against. */
function constPins(
  stretch: string,
  schemasDir: string,
  root: string,
  specText: string,
): { file: string; detail: string }[] {
  const out: { file: string; detail: string }[] = [];
  for (const m of stretch.matchAll(/toMatchSchema\(\s*'([^']+)'/g))
    for (const file of schemaSources(m[1], schemasDir))
      for (const c of readFileSync(file, 'utf8').matchAll(/(\w+):\s*\{\s*const:\s*([^,}]+)/g)) {
        const value = c[2].trim().replace(/^['"]|['"]$/g, '');
        if (onlyShown(value, specText))
          out.push({ file: relative(root, file), detail: `${m[1]}: ${c[1]} const ${c[2].trim()}` });
      }
  return out;
}

/**
 * Every pin the tests of a MUST hold that its catalogue entry does not name in `pins:`
 * (an entry with a `pins:` note is taken as naming the sentence that fixes what it pins).
 */
export function pinFindings(
  catalogue: Catalogue,
  testsDir = fromRoot('tests'),
  schemasDir = fromRoot('schemas'),
  root = fromRoot(),
  specText = readFileSync(fromRoot(QUOTE_FILES.spec), 'utf8'),
): PinFinding[] {
  const stretches = stretchesById(specFiles(testsDir));
  const out: PinFinding[] = [];
  for (const r of catalogue.all) {
    if (r.level !== 'MUST' || r.pins) continue;
    const seen = new Set<string>();
    for (const { file, text } of stretches.get(r.id) ?? []) {
      const add = (f: PinFinding) => {
        const key = `${f.kind} ${f.file} ${f.detail}`;
        if (!seen.has(key)) out.push(f);
        seen.add(key);
      };
      const at = relative(root, file);
      for (const detail of equalityPins(text)) add({ id: r.id, kind: 'whole-object equality', file: at, detail });
      for (const c of constPins(text, schemasDir, root, specText)) add({ id: r.id, kind: 'schema const', ...c });
      for (const detail of literalPins(text, specText)) add({ id: r.id, kind: 'literal value', file: at, detail });
      for (const detail of codePins(text)) add({ id: r.id, kind: 'status code', file: at, detail });
      for (const detail of windowPins(text)) add({ id: r.id, kind: 'time window', file: at, detail });
      for (const c of minItemsPins(text, schemasDir, root, specText)) add({ id: r.id, kind: 'minimum count', ...c });
      for (const detail of presencePins(text, specText))
        add({ id: r.id, kind: 'listed field required', file: at, detail });
      for (const detail of nonEmptyPins(text, specText)) add({ id: r.id, kind: 'minimum count', file: at, detail });
      for (const c of requiredPins(text, schemasDir, root, specText))
        add({ id: r.id, kind: 'listed field required', ...c });
    }
  }
  return out;
}

/** Where the generated phase's sources are (its generators, judgements and fixtures). */
export const GENERATED_DIR = fromRoot('harness', 'properties');

/** The judgement that reports a case in a may-decline space as declined (harness/properties/judge.ts). */
export const DECLINE_JUDGEMENT = 'declinedOnce';

/**
 * The top-level definitions of the sources in `dir` (functions and constants), each with the text
 * of its body (comments left out): from its declaration to the next top-level declaration.
 */
export function definitions(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    // Comments taken out: a name a comment mentions is not reached.
    const text = readFileSync(join(dir, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:])\/\/.*$/gm, '$1');
    const starts = [...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)/gm)];
    starts.forEach((m, i) => {
      const rest = text.slice(m.index!, starts[i + 1]?.index ?? text.length);
      out.set(m[1], `${out.get(m[1]) ?? ''}${rest}`);
    });
  }
  return out;
}

/** Every name a text mentions and, through `defs`, every name their definitions mention in turn. */
export function reached(text: string, defs: ReadonlyMap<string, string>): Set<string> {
  const seen = new Set<string>();
  const queue = [text];
  while (queue.length)
    for (const m of queue.shift()!.matchAll(/[A-Za-z_$][\w$]*/g)) {
      if (seen.has(m[0])) continue;
      seen.add(m[0]);
      const body = defs.get(m[0]);
      if (body) queue.push(body);
    }
  return seen;
}

/**
 * The generated valid values of one stretch: for each generator in `outside` (its name, and the
 * may-decline value drawn from it) the stretch reaches, one finding, unless the stretch reaches the
 * decline judgement too. A stretch that runs no property (`runProperty`) draws nothing.
 */
export function valueSpacePins(
  stretch: string,
  defs: ReadonlyMap<string, string>,
  outside: ReadonlyMap<string, string>,
): string[] {
  if (!/\brunProperty\s*\(/.test(stretch)) return [];
  const names = reached(stretch, defs);
  if (names.has(DECLINE_JUDGEMENT)) return [];
  return [...outside].filter(([generator]) => names.has(generator)).map(([g, drawn]) => short(`${g} draws ${drawn}`));
}

/**
 * Every generated valid value outside the must-accept space in a property of a MUST: `outside` maps
 * each generator of valid cases found drawing a may-decline value to that value (the caller draws).
 */
export function generatedValuePins(
  catalogue: Catalogue,
  outside: ReadonlyMap<string, string>,
  testsDir = fromRoot('tests'),
  generatedDir = GENERATED_DIR,
  root = fromRoot(),
): PinFinding[] {
  const defs = definitions(generatedDir);
  const stretches = stretchesById(specFiles(testsDir));
  return catalogue.all
    .filter((r) => r.level === 'MUST')
    .flatMap((r) =>
      (stretches.get(r.id) ?? []).flatMap(({ file, text }) =>
        valueSpacePins(text, defs, outside).map((detail): PinFinding => ({
          id: r.id,
          kind: 'generated valid value',
          file: relative(root, file),
          detail,
        })),
      ),
    );
}
