import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';

/**
 * The TypeScript and JavaScript files under a folder of the project, relative to the root. Folders
 * whose name starts with a dot (selftest/.runs: the runs' own files, an installed package's
 * node_modules among them, removed by its test while others run) and node_modules are not entered.
 */
export function sourcesUnder(folder: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name.startsWith('.') || e.name === 'node_modules'
          ? []
          : walk(join(dir, e.name))
        : e.isFile() && /\.(ts|mts|mjs)$/.test(e.name)
          ? [relative(fromRoot(), join(dir, e.name))]
          : [],
    );
  return walk(fromRoot(folder)).sort();
}
