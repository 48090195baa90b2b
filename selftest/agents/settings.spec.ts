import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect } from '@playwright/test';
import { test } from '../support/test.js';
import { checkPsuAgent, readSettings } from '../../harness/config/settings.js';
import { loadProfile } from '../../harness/config/profile.js';
import { findChromium } from '../../harness/config/chromium.js';
import type { Profile } from '../../profiles/profile.schema.js';

const NO_ENV_FILE = '/nonexistent/.env';
const settings = (env: Record<string, string>) => readSettings(env, NO_ENV_FILE);
const base = loadProfile('reference');
const withSca = (sca: Record<string, unknown>): Profile => ({ ...base, sca: { ...base.sca, ...sca } }) as Profile;
const steps = { approve: [{ fill: '#password', from: 'PSU_LOGIN_PASSWORD' }, { click: '#approve' }] };

test('a browser agent without steps stops the run naming sca.browser', () => {
  expect(() => checkPsuAgent(withSca({ psuAgent: 'browser' }), settings({}))).toThrow(/^sca\.browser:/);
});

test('a browser step whose .env key is not set stops the run naming the step and the key', () => {
  expect(() => checkPsuAgent(withSca({ psuAgent: 'browser', browser: steps }), settings({}))).toThrow(
    /^sca\.browser\.approve\[0\]\.from: the \.env key PSU_LOGIN_PASSWORD is not set/,
  );
});

test("a CHROMIUM_PATH that is missing falls back to the npm package's build; with none either, the run stops naming CHROMIUM_PATH", () => {
  const env = { CHROMIUM_PATH: '/nonexistent/chromium', PSU_LOGIN_PASSWORD: 'x' };
  // @sparticuz/chromium is a devDependency: the check passes on its build (harness/config/chromium.ts).
  expect(() => checkPsuAgent(withSca({ psuAgent: 'browser', browser: steps }), settings(env))).not.toThrow();
  const found = findChromium('/nonexistent/chromium');
  expect(found.source, found.describe).toBe('npm');
  expect(found.describe).toContain('no browser at /nonexistent/chromium');
  expect(() => findChromium('/nonexistent/chromium', { npmPackage: false })).toThrow(
    /^CHROMIUM_PATH: no browser at \/nonexistent\/chromium, and no @sparticuz\/chromium package to fall back to/,
  );
});

test("the browser is CHROMIUM_PATH when it exists, else Debian's chromium when CHROMIUM_PATH is unset", () => {
  const here = process.execPath;
  expect(findChromium(here).source).toBe('configured');
  expect(findChromium(here).executablePath).toBe(here);
  expect(findChromium('', { systemPath: here }).source).toBe('system');
  expect(findChromium('', { systemPath: '/nonexistent/chromium' }).source).toBe('npm');
});

test("the npm package's Chromium unpacks once and launches headless", async () => {
  test.setTimeout(60_000);
  const found = findChromium('/nonexistent/chromium');
  const browser = await chromium.launch({ ...(await found.launchOptions()), headless: true });
  try {
    const page = await browser.newPage();
    await page.setContent('<title>x</title><p id="p"></p><script>p.textContent = String(6 * 7)</script>');
    await expect(page.locator('#p')).toHaveText('42');
  } finally {
    await browser.close();
  }
  expect(existsSync(found.executablePath), found.executablePath).toBe(true);
});

test('the manual agent needs a loopback redirect URI or PSU_CALLBACK_LISTEN, named when missing or malformed', () => {
  const manual = withSca({ psuAgent: 'manual' });
  expect(() => checkPsuAgent(manual, settings({ REDIRECT_URI: 'https://tpp.example/callback' }))).toThrow(
    /^PSU_CALLBACK_LISTEN: required/,
  );
  expect(() => checkPsuAgent(manual, settings({ PSU_CALLBACK_LISTEN: 'nonsense' }))).toThrow(
    /^PSU_CALLBACK_LISTEN: "nonsense" is not host:port/,
  );
  expect(() => checkPsuAgent(manual, settings({ REDIRECT_URI: 'http://127.0.0.1:8765/callback' }))).not.toThrow();
  expect(() => checkPsuAgent(manual, settings({ PSU_CALLBACK_LISTEN: '127.0.0.1:8765' }))).not.toThrow();
});

test('an unknown PSU agent in a profile stops the run naming sca.psuAgent', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'obg-agents-')), 'robot.json');
  writeFileSync(file, JSON.stringify({ ...base, sca: { ...base.sca, psuAgent: 'robot' } }));
  expect(() => loadProfile(file)).toThrow(/sca\.psuAgent: must be one of \["form","browser","manual","none"\]/);
});
