import { existsSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV, ENV_NAME_EXCEPTIONS, ENV_VARS } from '../../harness/config/env-names.mjs';
import { fromRoot } from '../../harness/config/paths.js';

// The suite's own environment variables are named once (harness/config/env-names.mjs), with who
// writes and who reads them; the lint refuses the names elsewhere (eslint.config.mjs).

test('every OBG_* variable has one key and an OBG_ name of its own', () => {
  const names = Object.values(ENV_VARS).map((v) => v.name);
  for (const name of names) expect(name, 'a name of the suite').toMatch(/^OBG_[A-Z0-9_]+$/);
  expect(new Set(names).size, 'names are unique').toBe(names.length);
  // The keys' type (EnvKey) is the object's own: the type checker reads env-names.mjs itself.
  expect(ENV).toEqual(Object.fromEntries(Object.entries(ENV_VARS).map(([k, v]) => [k, v.name])));
});

test('each writer and reader named for a variable takes its name from ENV', () => {
  const missing: string[] = [];
  for (const [key, v] of Object.entries(ENV_VARS)) {
    expect(v.writers.length, `${v.name}: a writer`).toBeGreaterThan(0);
    expect(v.readers.length, `${v.name}: a reader`).toBeGreaterThan(0);
    for (const file of [...v.writers, ...v.readers]) {
      if (file === 'user') continue;
      if (!existsSync(fromRoot(file))) missing.push(`${v.name}: ${file} does not exist`);
      else if (ENV_NAME_EXCEPTIONS.includes(file)) {
        if (!readFileSync(fromRoot(file), 'utf8').includes(v.name)) missing.push(`${v.name}: not in ${file}`);
      } else {
        // A user's setting is read as a field of the settings (loadSettings().own.<key>), a
        // hand-off between the suite's processes with internal('<key>') (user-settings.mjs).
        const text = readFileSync(fromRoot(file), 'utf8');
        const read = v.setting ? `own.${key}` : `internal('${key}'`;
        if (!text.includes(`ENV.${key}`) && !text.includes(read))
          missing.push(`${v.name}: ${file} does not use ENV.${key} or ${read}`);
      }
    }
  }
  expect(missing, 'files named in env-names.mjs').toEqual([]);
});
