import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { collapseWhitespace } from '../catalogue/catalogue.js';

/**
 * The specification cut into the units a requirement can judge: every sentence of a paragraph or
 * list item, and every body row of a table (a row is one unit: its cells say one thing together).
 * Headings and table header rows are not units. Each unit knows where it stands in the
 * specification's text with runs of whitespace collapsed (the coordinates quotes are matched in,
 * as the catalogue's quote lint does), and which normative markers it carries.
 */
export interface SpecUnit {
  /** Stable within one version of the specification: u1, u2, … in document order. */
  id: string;
  kind: 'sentence' | 'row';
  /** The headings above it below the document's title, outermost first, joined by " › ". */
  section: string;
  /** The unit's Markdown as it stands (a row: its source line). */
  text: string;
  /** Its place in the specification's text, whitespace collapsed: [start, end). */
  start: number;
  end: number;
  /** The normative markers it carries (NORMATIVE_MARKERS, or one of its table's columns); none: not normative. */
  markers: string[];
  /**
   * Its clauses (clausesOf): one rule each, judged or explained one by one. They cover the unit
   * from its start to its end (a row's first clause holds the cells before its last one); a unit of
   * one rule, or of none (not normative), has one clause.
   */
  clauses: SpecClause[];
}

/** One rule of a unit: a piece of a row's last cell, or of a sentence (see clausesOf). */
export interface SpecClause {
  /** The unit's id for a unit of one clause; else the unit's id, "-" and its place: u12-1, u12-2, … */
  id: string;
  /** The clause's words as they stand (of a row: its piece of the last cell). */
  text: string;
  /** Its place in the collapsed text, [start, end): from its piece's start to the next piece's. */
  start: number;
  end: number;
}

/**
 * What makes a sentence normative: it states something a target's behaviour can be held to. Each
 * marker is a plain word test, applied after the clauses that say the specification is silent
 * ("…: not shown") are dropped. Table rows are normative also by their table (ROW_MARKERS).
 */
export const NORMATIVE_MARKERS: readonly { marker: string; test: RegExp }[] = [
  { marker: 'must or required', test: /\b(must|required|mandatory|mandated|mandates?|needs?|prerequisite)\b/i },
  {
    marker: 'a stated restriction',
    test: /\b(only|always|never|every|not accepted|case-sensitive|unique|non-empty|if and only if|no repeats)\b/i,
  },
  {
    marker: 'a stated type or format',
    test: /\((string|integer|boolean|array|object|uuid|date|date-time|uri|ipv4|byte)\b|\bstring\(|\bas string\b|\bbase64\b|\bISO (date|8601)\b|\bform `/,
  },
  { marker: 'a list of values', test: /\bone of\b|\(enum\)|`[^`]+`,? or `[^`]+`/i },
  { marker: 'a limit', test: /\b(at most|at least|exactly|within)\b|\b\d+ characters\b/i },
  { marker: 'a state move', test: /→|\buntil `|\b(expires|ends with|ends when)\b/ },
  { marker: 'a timing', test: /\b\d+( to \d+)? ?(ms|seconds?)\b|\bevery \d/i },
  { marker: 'an operation (method and path)', test: /\b(GET|POST|PUT|DELETE|PATCH) (`|\{|base path|<)/ },
  { marker: 'a stated response', test: /\b[Rr]esponse( header)?:|\b(is|are) returned\b/ },
];

/** Table columns whose filled cell makes a row normative, and tables whose every row is. */
const ROW_MARKERS = {
  required: 'a field marked "yes" in the Required column',
  type: 'a stated type (the Type column)',
  state: 'a state move (a row of a state table)',
  limit: 'a row of the Limits table',
};

/** Drops the clauses that say the specification is silent: "Other accountAccess fields: not shown". */
export const withoutSilence = (s: string) => s.replace(/[^.;|:]*:\s*not shown\.?/gi, ' ');

/** The normative markers of a piece of prose (or of a row's cells joined). */
export function markersOf(text: string): string[] {
  const said = withoutSilence(text);
  return NORMATIVE_MARKERS.filter(({ test }) => test.test(said)).map(({ marker }) => marker);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * The sentences of a paragraph's Markdown (Intl.Segmenter's sentence boundaries), never cutting
 * inside a code span (a piece with an odd number of backticks is joined to the next) nor at a
 * line break (a soft break of Markdown, not the end of a sentence).
 */
export function sentencesOf(markdown: string): string[] {
  const out: string[] = [];
  let open = '';
  for (const { index, segment } of segmenter.segment(markdown.replace(/\n/g, ' '))) {
    open += markdown.slice(index, index + segment.length);
    if ((open.match(/`/g) ?? []).length % 2 === 0) {
      if (open.trim()) out.push(open.trim());
      open = '';
    }
  }
  if (open.trim()) out.push(open.trim());
  return out;
}

/** Splits at "; " outside code spans and parentheses (a `a; b` value, a "(x; y)" aside stay whole). */
function atSemicolons(text: string): string[] {
  const out: string[] = [];
  let open = '';
  for (const part of text.split(/(?<=;)\s+/)) {
    open += (open ? ' ' : '') + part;
    const depth = (open.match(/\(/g) ?? []).length - (open.match(/\)/g) ?? []).length;
    if ((open.match(/`/g) ?? []).length % 2 === 0 && depth <= 0) {
      out.push(open);
      open = '';
    }
  }
  if (open) out.push(open);
  return out;
}

/** The pieces of a text at its sentence boundaries and at "; ", without their trailing "." or ";". */
const piecesOf = (text: string) =>
  sentencesOf(text)
    .flatMap(atSemicolons)
    .map((p) => p.trim().replace(/[.;]$/, '').trim())
    .filter(Boolean);

/** A piece that says only that the specification is silent ("Other allowed values: not shown"). */
const silent = (piece: string) => !withoutSilence(piece).replace(/[\s.;,]/g, '');

/**
 * The rule by which a unit is cut into clauses, each one rule, judged or explained on its own:
 * - a table row: its last cell (the rule, the effects, the description) is cut at its sentence
 *   boundaries and at every "; ": each piece is a clause (a cell of a table states rules; each
 *   piece one). The cells before it (name, type, required) belong to the first clause.
 * - a sentence: cut at "; " only where every piece carries a normative marker of its own (a
 *   sentence whose parts do not each state a rule is one clause).
 * A piece that says only that the specification is silent ("…: not shown") is no clause: its words
 * stay with the clause before it. `explicit` (spec/clauses.yaml) replaces the pieces of a
 * unit whose rules this rule does not part ("Booked entries use the booking date, pending entries
 * the entry date" is two).
 */
export function clausePieces(kind: SpecUnit['kind'], text: string, explicit?: string[]): string[] {
  if (explicit?.length) return explicit;
  if (kind === 'row') {
    const cells = splitRow(text);
    const pieces = piecesOf(cells[cells.length - 1] ?? '').filter((p) => !silent(p));
    return pieces.length > 1 ? pieces : [];
  }
  const pieces = atSemicolons(text)
    .map((p) => p.trim().replace(/;$/, ''))
    .filter((p) => !silent(p));
  return pieces.length > 1 && pieces.every((p) => markersOf(p).length) ? pieces : [];
}

/** A row's cells, split at the pipes outside code spans. */
export function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '`') code = !code;
    if (ch === '|' && !code && line[i - 1] !== '\\') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  // A row starts and ends with a pipe: the outer empty pieces are no cells.
  return cells
    .slice(line.trim().startsWith('|') ? 1 : 0, line.trim().endsWith('|') ? -1 : undefined)
    .map((c) => c.trim());
}

/**
 * The clauses of a unit at its place in the collapsed text: each piece found in order in the
 * unit's words (a row's from its last cell, but an explicit list's first piece may stand in an
 * earlier cell); a clause runs from its piece to the next piece (the first from the unit's start,
 * the last to its end). A piece not found in the unit's words throws (an explicit list must quote
 * the unit).
 */
export function clausesOf(unit: Omit<SpecUnit, 'clauses'>, explicit?: string[]): SpecClause[] {
  const pieces = clausePieces(unit.kind, unit.text, explicit);
  if (pieces.length < 2) return [{ id: unit.id, text: unit.text, start: unit.start, end: unit.end }];
  const words = collapseWhitespace(unit.text);
  const at: number[] = [];
  let from = unit.kind === 'row' ? words.lastIndexOf('|', words.length - 2) : 0;
  // An explicit list may begin in an earlier cell of a row (its type: `string(ipv4)`), so that what
  // the type states and what the last cell states are clauses of their own.
  const first = collapseWhitespace(pieces[0]);
  if (explicit?.length && unit.kind === 'row' && words.indexOf(first, from) < 0 && words.indexOf(first) >= 0)
    from = words.indexOf(first);
  for (const p of pieces) {
    const i = words.indexOf(collapseWhitespace(p), from);
    if (i < 0) throw new Error(`clause "${p}" is not in the words of ${unit.id} after its previous clause: ${words}`);
    at.push(i);
    from = i + collapseWhitespace(p).length;
  }
  return pieces.map((p, k) => ({
    id: `${unit.id}-${k + 1}`,
    text: p,
    start: unit.start < 0 ? -1 : k === 0 ? unit.start : unit.start + at[k],
    end: unit.start < 0 ? -1 : k === pieces.length - 1 ? unit.end : unit.start + at[k + 1],
  }));
}

export const markdownIt = () => new MarkdownIt({ html: false, linkify: false, typographer: false });

/** One paragraph's or row's place among the tokens, for the renderer: which units it holds. */
export interface UnitPlacement {
  /** The index of the inline token (a paragraph) or of the tr_open token (a row). */
  token: number;
  units: SpecUnit[];
}

export interface SpecText {
  markdown: string;
  /** The text with runs of whitespace collapsed: the coordinates of units and quotes. */
  collapsed: string;
  tokens: Token[];
  units: SpecUnit[];
  placements: UnitPlacement[];
}

/**
 * Cuts the specification's Markdown into units (see SpecUnit) and each unit into its clauses;
 * `explicit` gives the clauses of the units (by their words, whitespace collapsed) the splitting
 * rule does not part (spec/clauses.yaml).
 */
export function readSpec(markdown: string, md = markdownIt(), explicit = new Map<string, string[]>()): SpecText {
  const tokens = md.parse(markdown, {});
  const lines = markdown.split('\n');
  const collapsed = collapseWhitespace(markdown);
  const units: SpecUnit[] = [];
  const placements: UnitPlacement[] = [];
  const headings: string[] = [];
  let cursor = 0;
  const place = (kind: SpecUnit['kind'], text: string, markers: string[]): SpecUnit => {
    const c = collapseWhitespace(text);
    let at = collapsed.indexOf(c, cursor);
    if (at < 0) at = collapsed.indexOf(c);
    if (at >= 0) cursor = at + c.length;
    const unit: Omit<SpecUnit, 'clauses'> = {
      id: `u${units.length + 1}`,
      kind,
      // Below the document's title; the title alone for what stands before the first section.
      section: (headings.slice(1).some(Boolean) ? headings.slice(1) : headings).filter(Boolean).join(' › '),
      text: text.trim(),
      start: at,
      end: at < 0 ? at : at + c.length,
      markers,
    };
    // A unit that states no rule is not counted: it is one clause, whatever its words, unless
    // spec/clauses.yaml parts it (so that a requirement is credited only with the part it reads).
    const listed = explicit.get(collapseWhitespace(text));
    const clauses =
      markers.length || listed
        ? clausesOf(unit, listed)
        : [{ id: unit.id, text: unit.text, start: unit.start, end: unit.end }];
    const whole = { ...unit, clauses };
    units.push(whole);
    return whole;
  };
  let header: string[] = [];
  let inHead = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'heading_open') {
      const level = Number(t.tag.slice(1));
      headings.length = level - 1;
      headings[level - 1] = tokens[i + 1].content;
      i++;
    } else if (t.type === 'thead_open') {
      inHead = true;
      header = [];
    } else if (t.type === 'thead_close') inHead = false;
    else if (t.type === 'th_open' && inHead) header.push(tokens[i + 1].content.trim().toLowerCase());
    else if (t.type === 'tr_open' && !inHead && t.map) {
      const cells: string[] = [];
      for (let j = i + 1; tokens[j].type !== 'tr_close'; j++)
        if (tokens[j].type === 'inline') cells.push(tokens[j].content);
      const markers = markersOf(cells.join(' | '));
      const cell = (name: string) => cells[header.indexOf(name)]?.trim() ?? '';
      if (/^yes\b/i.test(cell('required'))) markers.unshift(ROW_MARKERS.required);
      if (withoutSilence(cell('type')).trim()) markers.push(ROW_MARKERS.type);
      if (header.includes('next state')) markers.push(ROW_MARKERS.state);
      if (headings[1] === 'Limits') markers.push(ROW_MARKERS.limit);
      const unit = place('row', lines[t.map[0]], [...new Set(markers)]);
      placements.push({ token: i, units: [unit] });
    } else if (t.type === 'inline' && tokens[i - 1]?.type === 'paragraph_open') {
      const us = sentencesOf(t.content).map((s) => place('sentence', s, markersOf(s)));
      placements.push({ token: i, units: us });
    }
  }
  return { markdown, collapsed, tokens, units, placements };
}

/** Every place [start, end) where a quote stands in the collapsed text. */
export function occurrences(collapsed: string, quote: string): [number, number][] {
  const q = collapseWhitespace(quote);
  const out: [number, number][] = [];
  if (!q) return out;
  for (let at = collapsed.indexOf(q); at >= 0; at = collapsed.indexOf(q, at + 1)) out.push([at, at + q.length]);
  return out;
}

/** The clauses of a unit a quote touches (each occurrence overlapping them). */
export function clausesQuoted(spec: Pick<SpecText, 'collapsed'>, unit: SpecUnit, quote: string): SpecClause[] {
  const spans = occurrences(spec.collapsed, quote);
  return unit.clauses.filter((c) => c.start >= 0 && spans.some(([a, b]) => c.start < b && a < c.end));
}

/** The units a quote touches: every unit any of its occurrences overlaps (a quote may span several). */
export function unitsQuoted(spec: Pick<SpecText, 'collapsed' | 'units'>, quote: string): SpecUnit[] {
  const spans = occurrences(spec.collapsed, quote);
  return spec.units.filter((u) => u.start >= 0 && spans.some(([a, b]) => u.start < b && a < u.end));
}
