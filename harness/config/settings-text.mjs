// @ts-check
// The texts made from the settings schema: the settings part of `obg-conformance <command> --help`
// and `.env.example` (a unit test holds that the file is the text made here; scripts/env-example.mjs
// writes it).
import { documentedSettings, SETTINGS_SCHEMA } from './user-settings.mjs';

const WIDTH = 100;

/**
 * `text` wrapped at `width` columns, each line starting with `prefix`.
 * @param {string} text
 * @param {string} prefix
 * @returns {string[]}
 */
function wrap(text, prefix, width = WIDTH) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}

/**
 * The settings a command's help lists, by group, in the schema's order.
 * @param {string} command
 */
function settingsOf(command) {
  const groups = Object.entries(SETTINGS_SCHEMA.groups).filter(([, g]) => g.commands.includes(command));
  const all = documentedSettings();
  return groups.map(([id, g]) => ({ title: g.title, settings: all.filter((s) => s.spec.group === id) }));
}

/**
 * A setting's one line of help: its summary, and its default when the summary does not say it.
 * @param {import('./user-settings.mjs').SettingSpec} spec
 */
const summaryOf = (spec) =>
  spec.default !== undefined && !/\bdefault\b/.test(spec.summary)
    ? `${spec.summary} (default ${spec.default})`
    : spec.summary;

/**
 * The settings part of a command's --help (empty when the command reads none of its own).
 * @param {string} command
 * @returns {string}
 */
export function settingsHelp(command) {
  const groups = settingsOf(command);
  if (!groups.length) return '';
  const NAME = 28;
  const lines = ['Settings (environment, or .env in the working folder; the environment wins):'];
  for (const g of groups) {
    lines.push(`  ${g.title}`);
    for (const { name, spec } of g.settings) {
      const summary = summaryOf(spec);
      if (name.length < NAME - 1) lines.push(...wrapHanging(`    ${name.padEnd(NAME)}`, summary));
      else lines.push(`    ${name}`, ...wrap(summary, ' '.repeat(NAME + 4)));
    }
  }
  return lines.join('\n');
}

/**
 * `first` followed by `text`, wrapped under it.
 * @param {string} first
 * @param {string} text
 */
function wrapHanging(first, text) {
  const [head, ...rest] = wrap(text, ' '.repeat(first.length));
  return [first + head.trimStart(), ...rest];
}

const HEADER = `# obg-conformance settings. Copy to .env in the working folder (the folder you run
# \`npx obg-conformance\` in; \`obg-conformance init\` writes one) and fill in; the process environment
# wins over .env. A malformed value stops the run before any test with a message naming the key and
# a hint, exit 2 (DEBUG=obg adds the stack). Made from harness/config/settings.schema.json
# (node scripts/env-example.mjs): edit the schema, not this file.`;

/** The text of .env.example: every documented setting by group, with its description and default. */
export function envExample() {
  const out = [HEADER];
  for (const [id, g] of Object.entries(SETTINGS_SCHEMA.groups)) {
    const settings = documentedSettings().filter((s) => s.spec.group === id);
    if (!settings.length) continue;
    out.push('', `# --- ${g.title} ${'-'.repeat(Math.max(3, WIDTH - 7 - g.title.length))}`);
    for (const { name, spec } of settings) {
      const text = spec.default !== undefined ? `${spec.description} Default: ${spec.default}.` : spec.description;
      out.push(...wrap(text, '# '));
      if (spec.examples) out.push(...spec.examples.map((e) => `# ${e}=`));
      else out.push(`${name}=`);
    }
  }
  return `${out.join('\n')}\n`;
}
