import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { checkPsuAgent, readSettings } from '../../harness/config/settings.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Profile } from '../../profiles/profile.schema.js';

const NO_ENV_FILE = '/nonexistent/.env';
const settings = (env: Record<string, string>) => readSettings(env, NO_ENV_FILE);
const base = loadProfile('reference');
const withSca = (sca: Record<string, unknown>): Profile => ({ ...base, sca: { ...base.sca, ...sca } }) as Profile;
const steps = { approve: [{ fill: '#password', from: 'PSU_LOGIN_PASSWORD' }, { click: '#approve' }] };

test('a browser agent without steps stops the run naming sca.browser', () => {
  expect(() => checkPsuAgent(withSca({ psuAgent: 'browser' }), settings({}), {}, NO_ENV_FILE)).toThrow(
    /^sca\.browser:/,
  );
});

test('a browser step whose .env key is not set stops the run naming the step and the key', () => {
  expect(() => checkPsuAgent(withSca({ psuAgent: 'browser', browser: steps }), settings({}), {}, NO_ENV_FILE)).toThrow(
    /^sca\.browser\.approve\[0\]\.from: the \.env key PSU_LOGIN_PASSWORD is not set/,
  );
});

test('a missing browser stops the run naming CHROMIUM_PATH', () => {
  const env = { CHROMIUM_PATH: '/nonexistent/chromium', PSU_LOGIN_PASSWORD: 'x' };
  expect(() =>
    checkPsuAgent(withSca({ psuAgent: 'browser', browser: steps }), settings(env), env, NO_ENV_FILE),
  ).toThrow(/^CHROMIUM_PATH: no browser at \/nonexistent\/chromium/);
});

test('the manual agent needs a loopback redirect URI or PSU_CALLBACK_LISTEN, named when missing or malformed', () => {
  const manual = withSca({ psuAgent: 'manual' });
  expect(() =>
    checkPsuAgent(manual, settings({ REDIRECT_URI: 'https://tpp.example/callback' }), {}, NO_ENV_FILE),
  ).toThrow(/^PSU_CALLBACK_LISTEN: required/);
  expect(() => checkPsuAgent(manual, settings({ PSU_CALLBACK_LISTEN: 'nonsense' }), {}, NO_ENV_FILE)).toThrow(
    /^PSU_CALLBACK_LISTEN: "nonsense" is not host:port/,
  );
  expect(() =>
    checkPsuAgent(manual, settings({ REDIRECT_URI: 'http://127.0.0.1:8765/callback' }), {}, NO_ENV_FILE),
  ).not.toThrow();
  expect(() =>
    checkPsuAgent(manual, settings({ PSU_CALLBACK_LISTEN: '127.0.0.1:8765' }), {}, NO_ENV_FILE),
  ).not.toThrow();
});

test('an unknown PSU agent in a profile stops the run naming sca.psuAgent', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'obg-agents-')), 'robot.json');
  writeFileSync(file, JSON.stringify({ ...base, sca: { ...base.sca, psuAgent: 'robot' } }));
  expect(() => loadProfile(file)).toThrow(/sca\.psuAgent: must be one of \["form","browser","manual","none"\]/);
});
