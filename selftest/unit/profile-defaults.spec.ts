import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { validatorOf } from '../../harness/config/ajv.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile, type Profile } from '../../harness/config/profile.js';
import { profileSchema } from '../../profiles/profile.schema.js';

// A profile's defaults live in one place, profiles/profile.schema.ts (`default`), and are applied
// when the profile is loaded: a reader takes a field as it is, with no default of its own.

type Node = { default?: unknown; properties?: Record<string, Node> };

/**
 * Every field of the schema that has a default, by its path (e.g. ['payments', 'cancelAnswer']),
 * with the default; a section (a field with fields of its own) is kept with the defaults of its fields.
 */
function defaultsOf(node: Node, path: string[] = []): { path: string[]; value: unknown; section: boolean }[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => [
    ...(child.default === undefined
      ? []
      : [{ path: [...path, key], value: child.default, section: child.properties !== undefined }]),
    ...defaultsOf(child, [...path, key]),
  ]);
}

/** What a loaded profile holds where the schema has a default: the default, or for a section an object. */
const applied = (d: { value: unknown; section: boolean }, found: unknown): boolean =>
  d.section
    ? !!found && typeof found === 'object' && !Array.isArray(found)
    : JSON.stringify(found) === JSON.stringify(d.value);

const at = (data: unknown, path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), data);

const MINIMAL = {
  name: 'minimal',
  features: [],
  psuContext: 'private',
  paths: {},
  timeouts: { requestMs: 1000, scaMs: 1000 },
};

function written(profile: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'obg-profile-defaults-')), 'profile.json');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

test('a minimal profile, loaded, has every default of the schema applied', () => {
  const all = defaultsOf(profileSchema as unknown as Node);
  // The schema states the defaults (a section's own `{}` included, so its fields' defaults apply).
  expect(all.map((d) => d.path.join('.'))).toEqual(
    expect.arrayContaining([
      'paths.payments',
      'consents',
      'consents.deleteAnswer',
      'oauth.tokenPath',
      'limits.retries',
    ]),
  );
  const file = written(MINIMAL);
  // Twice: the second load may come from the cache (harness/config/cache.ts), which keeps the defaults.
  for (const profile of [loadProfile(file), loadProfile(file)]) {
    // Inside a section without a default of its own (limits: absent means no bound), nothing is filled in.
    const expected = all.filter((d) => d.path.length === 1 || at(profile, d.path.slice(0, -1)) !== undefined);
    expect(expected.length, 'defaults found in the schema').toBeGreaterThan(25);
    const missing = expected
      .filter((d) => !applied(d, at(profile, d.path)))
      .map(
        (d) =>
          `${d.path.join('.')}: expected ${JSON.stringify(d.value)}, received ${JSON.stringify(at(profile, d.path))}`,
      );
    expect(missing, 'defaults not applied by loadProfile').toEqual([]);
    expect(profile.limits, 'limits absent: no bound, so no limits section is made').toBeUndefined();
  }
  // The type says so too: the defaulted fields are read without a fallback.
  const p: Profile = loadProfile(file);
  const read: string[] = [p.paths.consents, p.oauth.authorizePath, p.tokens.accountReads, p.payments.cancelAnswer];
  expect(read).toEqual(['psd2/consent/v1/consents', 'connect/authorize', 'application', 'either']);
  expect(p.payments.multilevelSca.signers).toBe(2);
  expect(p.sca.failingPsuId, 'an option without a default stays absent').toBeUndefined();
});

test('the defaults inside a section given without them are applied; a value the profile gives is kept', () => {
  const profile = loadProfile(
    written({ ...MINIMAL, limits: { concurrency: 2 }, consents: { deleteAnswer: 'no-content' }, oauth: {} }),
  );
  expect(profile.limits).toEqual({ concurrency: 2, retries: 2, maxRetryAfterMs: 5000 });
  expect(profile.consents).toEqual({
    deleteAnswer: 'no-content',
    afterDelete: 'terminatedByTpp',
    maxFrequencyPerDay: 4,
    combinedSessions: 'may-decline',
  });
  expect(profile.oauth).toEqual({ tokenPath: 'connect/token', authorizePath: 'connect/authorize' });
  const reference = loadProfile('reference');
  expect(reference.consents.deleteAnswer, 'the reference profile pins its own reading').toBe('message-and-links');
  expect(reference.payments.cancelAnswer, "the specification's reading, the reference's").toBe('status-and-links');
});

test("the suite's own validator of judged answers fills in no default", () => {
  const data = structuredClone(MINIMAL);
  expect(validatorOf(profileSchema)(data)).toBe(true);
  expect(data, 'validated without applyDefaults: unchanged').toEqual(MINIMAL);
});

/** A profile field read with a literal fallback: `profile.x?.y ?? 'z'`, `?? 4`, `?? []`, `?? {}`, `?? true`. */
const LITERAL_DEFAULT = /\bprofile\??\.[\w?.![\]]*\s*\?\?\s*(?:['"`[{]|-?\d|true\b|false\b|null\b)/;

function sources(folder: string): string[] {
  return readdirSync(fromRoot(folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(fromRoot(), join(e.parentPath, e.name)))
    .sort();
}

test('no reader in harness/, tests/ or scripts/ defaults a profile field with ?? <literal>', () => {
  // The rule sees what it is meant to see.
  for (const line of [
    "const base = t.profile.paths.payments ?? 'psd2/paymentinitiation/v1';",
    'const signers = payments.profile.payments?.multilevelSca?.signers ?? 2;',
    'for (const s of profile.sca.browser[kind] ?? []) {}',
  ])
    expect(line, 'a literal default the rule finds').toMatch(LITERAL_DEFAULT);
  for (const line of [
    "profile: this.target?.profileName ?? '(unknown)',",
    'const c = profile.directDebit.creditor ?? made();',
  ])
    expect(line, 'not a literal default of a profile field').not.toMatch(LITERAL_DEFAULT);
  const found = ['harness', 'tests', 'scripts'].flatMap((folder) =>
    sources(folder).flatMap((file) =>
      readFileSync(fromRoot(file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (LITERAL_DEFAULT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    ),
  );
  expect(found, 'a default belongs in profiles/profile.schema.ts (`default`), applied by loadProfile').toEqual([]);
});
