import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';

/** Every .ts file under `dir`. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/**
 * A step a check needs that the bank answers wrongly blocks the check, naming the requirement
 * that judges the step (harness/http/broken.ts: prerequisite, requireSuccess, block). A plain
 * Error about the bank's answer would report the step's failure as the check's own: none is
 * thrown in the harness's setup or in the tests. An Error about anything else (the profile, the
 * suite) stays allowed.
 */
test("no setup step throws a plain Error about the bank's answer: it blocks through the prerequisite path", () => {
  const files = [
    ...filesUnder(fromRoot('harness', 'areas')),
    ...filesUnder(fromRoot('harness', 'sca')),
    fromRoot('harness', 'operations.ts'),
    ...filesUnder(fromRoot('harness', 'auth')),
    ...filesUnder(fromRoot('harness', 'operations')),
    ...filesUnder(fromRoot('tests')),
  ];
  const offences: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/throw new Error\(([\s\S]*?)\);/g)) {
      // The bank's answer in the message (res.describe(), a status): a step that met the bank.
      if (/\.describe\(\)|\bstatus\b|expected a 2xx|expected 200/.test(m[1])) {
        const line = text.slice(0, m.index).split('\n').length;
        offences.push(`${relative(fromRoot(), file)}:${line}: throw new Error(${m[1].trim().slice(0, 80)}…)`);
      }
    }
  }
  expect(offences, 'use prerequisite(by, step, …), requireSuccess(res, by, step) or block(by, step, cause)').toEqual(
    [],
  );
});
