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
 * It does not see a pin written another way (a `toBe` on a literal value, an `enum`, a helper
 * that compares whole objects), nor a test that names its requirement through a variable.
 */

export type PinKind = 'whole-object equality' | 'schema const';

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
  let depth = 0;
  let argEnd = -1;
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
      if (depth === 0) {
        return { arg: text.slice(open + 1, argEnd < 0 ? i : argEnd).trim(), end: i + 1 };
      }
    } else if (ch === ',' && depth === 1 && argEnd < 0) argEnd = i;
  }
  return undefined;
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
    const calls = [...text.matchAll(/\breq\(\s*((?:'[^']+'\s*,?\s*)+)\)/g)];
    calls.forEach((m, i) => {
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
      for (const detail of equalityPins(text))
        add({ id: r.id, kind: 'whole-object equality', file: relative(root, file), detail });
      for (const c of constPins(text, schemasDir, root, specText)) add({ id: r.id, kind: 'schema const', ...c });
    }
  }
  return out;
}
