import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { buildAllureHtml } from '../../scripts/allure-html.mjs';
import { externalUrls, offlinePage } from '../../harness/reporter/offline-html.mjs';
import { renderSpecificationMap } from '../../harness/reporter/specification-html.js';
import { ENV } from '../../harness/config/env-names.mjs';

/*
 * Nothing calls out: no built page names a host outside the machine (Allure 3's template loads
 * Google's tag manager and reports each opening to Google Analytics; harness/reporter/offline-html.mjs
 * takes it out). Built from a results folder of three tests, so that it costs about a second.
 */

const result = (uuid: string, name: string, status: string, labels: Record<string, string>, message?: string) => ({
  uuid,
  name,
  fullName: `consents/create.spec.ts › ${name}`,
  historyId: uuid,
  testCaseId: uuid,
  status,
  statusDetails: message ? { message } : {},
  stage: 'finished',
  start: 1_795_000_000_000,
  stop: 1_795_000_000_100,
  steps: [],
  attachments: [],
  parameters: [],
  labels: Object.entries(labels).map(([n, value]) => ({ name: n, value })),
});

test('the Allure report built (served and one file) and the specification map name no outside host', () => {
  const dir = runDir('offline-html');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'allure-results'), { recursive: true });
  const results = [
    result('00000000-0000-4000-8000-000000000001', 'a valid consent is created', 'passed', {
      story: 'consents.create.response',
      verdict: 'passed',
    }),
    result(
      '00000000-0000-4000-8000-000000000002',
      'a consent without access is refused',
      'skipped',
      { story: 'consents.create.required-fields', verdict: 'blocked', blockedBy: 'consents.create.response' },
      '[blocked by consents.create.response] its positive control did not pass here',
    ),
    result('00000000-0000-4000-8000-000000000003', 'a link to http://127.0.0.1:8080/x', 'failed', {
      story: 'consents.create.response',
      verdict: 'failed',
    }),
  ];
  for (const r of results)
    writeFileSync(join(dir, 'allure-results', `${r.uuid}-result.json`), JSON.stringify(r), 'utf8');
  writeFileSync(
    join(dir, 'conformance.json'),
    JSON.stringify({
      suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab' },
      target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference' },
      startedAt: '2026-11-29T01:00:00.000Z',
      finishedAt: '2026-11-29T01:01:00.000Z',
      verdict: 'not-conformant',
      totals: { passed: 1, failed: 1, warning: 0, skipped: 0, broken: 0, blocked: 1, untested: 0 },
      requirements: [],
    }),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: dir };
  delete env[ENV.allureAppendHistory];
  expect(buildAllureHtml(dir, env)).toEqual([]);
  // Built again from the same run: the history holds the run once (no phantom previous run).
  expect(buildAllureHtml(dir, env)).toEqual([]);
  const history = readFileSync(join(dir, 'history', 'allure-history.jsonl'), 'utf8')
    .trim()
    .split('\n');
  expect(history.length, "runs in Allure's history after two builds of one run").toBe(1);
  // The verdict first: the report's title.
  expect(readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8')).toContain(
    '<title> NOT-CONFORMANT: 1 failed, 1 blocked, 1 passed requirements (http://127.0.0.1:1) </title>',
  );
  const served = join(dir, 'allure-report');
  const pages = [
    join(dir, 'allure-report.html'),
    ...readdirSync(served)
      .filter((n) => /\.(html|js)$/.test(n))
      .map((n) => join(served, n)),
  ];
  expect(pages.length).toBeGreaterThanOrEqual(3);
  for (const page of pages) expect(externalUrls(readFileSync(page, 'utf8')), page).toEqual([]);
  const map = renderSpecificationMap(
    {
      suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
      target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
      verdict: 'not-conformant',
      requirements: [],
    },
    { allureResults: join(dir, 'allure-results') },
  );
  expect(externalUrls(map), 'the specification map').toEqual([]);
});

test('the check sees what calls out, and the analytics of Allure 3 are taken out of a page', () => {
  const page = [
    '<html><head><link href="//fonts.example.net/a.css" rel="stylesheet"></head><body>',
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>',
    "<script>window.dataLayer = []; function gtag(){dataLayer.push(arguments);} gtag('config', 'G-X');</script>",
    `<script src="data:text/javascript;base64,${Buffer.from('open("https://trace.playwright.dev/")').toString('base64')}"></script>`,
    '<a href="http://127.0.0.1:4000/x">local</a><svg xmlns="http://www.w3.org/2000/svg"></svg>',
    '</body></html>',
  ].join('\n');
  expect(externalUrls(page).sort()).toEqual([
    '//fonts.example.net',
    'https://trace.playwright.dev/',
    'https://www.googletagmanager.com/gtag/js?id=G-X',
  ]);
  const clean = offlinePage(page);
  expect(clean).not.toContain('gtag');
  expect(externalUrls(clean)).toEqual(['//fonts.example.net']);
});
