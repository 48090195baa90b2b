import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';

/** The most lines a paragraph of the docs may take: a longer one is split, or becomes a list or a table. */
const MAX_PARAGRAPH_LINES = 10;

interface Paragraph {
  line: number;
  lines: number;
  text: string;
}

const LIST_ITEM = /^\s*([-*+]|\d+\.)\s/;

/**
 * The paragraphs of a Markdown text: runs of non-blank lines outside fenced code, a list item
 * starting a paragraph of its own; table rows, headings and HTML comments are none.
 */
function paragraphsOf(markdown: string): Paragraph[] {
  const out: Paragraph[] = [];
  let fenced = false;
  let current: Paragraph | undefined;
  markdown.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    const fence = trimmed.startsWith('```');
    if (fence) fenced = !fenced;
    const outside = fence || fenced || !trimmed || /^(\||#|<!--)/.test(trimmed);
    if (outside || LIST_ITEM.test(line)) current = undefined;
    if (outside) return;
    if (!current) out.push((current = { line: i + 1, lines: 0, text: trimmed }));
    current.lines++;
  });
  return out;
}

const markdownUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );

test('the paragraph counter: a fenced block, a table and each list item are apart', () => {
  const long = Array.from({ length: 11 }, (_, i) => `line ${i}`).join('\n');
  const text = ['# Title', '', long, '', '```sh', long, '```', '', '| a |', '| b |', '', '- one', '  more', '- two'];
  expect(paragraphsOf(text.join('\n')).map((p) => [p.line, p.lines])).toEqual([
    [3, 11],
    [32, 2],
    [34, 1],
  ]);
});

test(`no paragraph of docs/ or the README over ${MAX_PARAGRAPH_LINES} lines: options go in lists or tables`, () => {
  const files = [fromRoot('README.md'), ...markdownUnder(fromRoot('docs'))];
  expect(files.length).toBeGreaterThan(5);
  const offences = files.flatMap((file) =>
    paragraphsOf(readFileSync(file, 'utf8'))
      .filter((p) => p.lines > MAX_PARAGRAPH_LINES)
      .map((p) => `${relative(fromRoot(), file)}:${p.line}: ${p.lines} lines ("${p.text.slice(0, 60)}…")`),
  );
  expect(offences, 'split each into shorter paragraphs, a list or a table').toEqual([]);
});
