import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ConfigError } from '../../harness/config/errors.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import { readSettings } from '../../harness/config/settings.js';

const noFile = join(tmpdir(), 'obg-no-such.env');

test('a malformed setting is refused, naming the key', () => {
  expect(() => readSettings({ TARGET_BASE_URL: 'not a url' }, noFile)).toThrow(/TARGET_BASE_URL.*not an absolute URL/);
  expect(() => readSettings({ BICFI: 'bank1' }, noFile)).toThrow(/BICFI.*not a BIC/);
  expect(() => readSettings({ PSU_IP_ADDRESS: '300.1.1.1' }, noFile)).toThrow(/PSU_IP_ADDRESS/);
  expect(() => readSettings({ REQUEST_TIMEOUT_MS: 'fast' }, noFile)).toThrow(/REQUEST_TIMEOUT_MS/);
  expect(() => readSettings({ TARGET_BASE_URL: 'https://bank.example', BICFI: 'SBXBSESS' }, noFile)).toThrow(
    /CLIENT_ID and CLIENT_SECRET/,
  );
  expect(() => readSettings({ TARGET_BASE_URL: 'https://bank.example', ACCESS_TOKEN: 't0k3n' }, noFile)).toThrow(
    /BICFI/,
  );
});

test('.env is read and the environment wins over it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-env-'));
  writeFileSync(join(dir, '.env'), 'BICFI=SBXBSESS\nAPP_LINK_BASE=https://app.example\n');
  const s = readSettings({ APP_LINK_BASE: 'https://other.example' }, join(dir, '.env'));
  expect(s.BICFI).toBe('SBXBSESS');
  expect(s.APP_LINK_BASE).toBe('https://other.example');
});

test('an invalid profile is refused, naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-profile-'));
  const good = loadProfile('reference');
  const write = (p: unknown) => {
    const f = join(dir, `p${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, JSON.stringify(p));
    return f;
  };
  expect(() => loadProfile(write({ ...good, psuContext: 'retail' }))).toThrow(/psuContext: must be one of/);
  expect(() => loadProfile(write({ ...good, timeouts: { requestMs: 'x', scaMs: 1000 } }))).toThrow(
    /timeouts\.requestMs/,
  );
  expect(() => loadProfile(write({ ...good, colour: 'blue' }))).toThrow(/"colour" is not a profile field/);
  expect(() => loadProfile(join(dir, 'missing'))).toThrow(ConfigError);
  writeFileSync(join(dir, 'broken.json'), '{ nope');
  expect(() => loadProfile(join(dir, 'broken.json'))).toThrow(/not valid JSON/);
});

test('sca.approaches steers the SCA checks: an approach without its feature, or a feature without its approach, stops the run naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-approaches-'));
  const good = loadProfile('reference');
  const write = (p: unknown) => {
    const f = join(dir, `p${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, JSON.stringify(p));
    return f;
  };
  const decoupledOnly = { ...good.sca, approaches: ['DECOUPLED'] };
  expect(() => loadProfile(write({ ...good, sca: decoupledOnly }))).toThrow(
    /sca\.approaches: features claims sca\.redirect, but the list leaves REDIRECT out/,
  );
  const withoutDecoupled = good.features.filter((f) => f !== 'sca.decoupled' && f !== 'sca.animated-qr');
  expect(() => loadProfile(write({ ...good, features: withoutDecoupled }))).toThrow(
    /sca\.approaches: lists DECOUPLED, but features does not claim sca\.decoupled/,
  );
  // Agreeing, or not given: loaded.
  const redirectOnly = { ...good.sca, approaches: ['REDIRECT', 'EMBEDDED'] };
  expect(loadProfile(write({ ...good, features: withoutDecoupled, sca: redirectOnly })).sca?.approaches).toEqual([
    'REDIRECT',
    'EMBEDDED',
  ]);
  const { approaches: _unused, ...noList } = good.sca!;
  expect(loadProfile(write({ ...good, features: withoutDecoupled, sca: noList })).features).not.toContain(
    'sca.decoupled',
  );
});

test('a bad setting stops the suite before any test, naming the key', () => {
  const run = spawnSync(fromRoot('node_modules/.bin/playwright'), ['test', '--list'], {
    cwd: fromRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TARGET_BASE_URL: 'https://bank.example',
      CLIENT_ID: 'a',
      CLIENT_SECRET: 'b',
      BICFI: 'not-a-bic',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).not.toBe(0);
  expect(`${run.stdout}${run.stderr}`).toMatch(/BICFI.*"not-a-bic" is not a BIC/);
});

test('a bad profile stops the suite before any test, naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-badprof-'));
  const f = join(dir, 'bad.json');
  writeFileSync(f, JSON.stringify({ ...loadProfile('reference'), psuContext: 'retail' }));
  const run = spawnSync(fromRoot('node_modules/.bin/playwright'), ['test', '--list'], {
    cwd: fromRoot(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TARGET_PROFILE: f },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).not.toBe(0);
  expect(`${run.stdout}${run.stderr}`).toMatch(/psuContext: must be one of/);
});
