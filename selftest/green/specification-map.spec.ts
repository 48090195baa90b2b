import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expect } from '@playwright/test';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { writeSpecificationMap } from '../../harness/reporter/specification-html.js';
import { noChromium, test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { greenRound } from './green-run.js';
import { readRound } from './rounds.js';

/**
 * The green run's specification map (reports/specification.html), opened from disk in Chromium
 * (the browser agent's: Debian's chromium, or the npm package's build; none is downloaded). With
 * no browser at all the tests fail in CI and are skipped elsewhere, saying why.
 */
const mapOf = (round: number) => runDir(`green-${round}`, 'specification.html');

test.beforeAll(async () => {
  test.setTimeout(900_000);
  await greenRound(1);
  const missing = noChromium();
  if (missing && process.env.CI) throw new Error(`the specification map's DOM is checked in Chromium: ${missing}`);
});

test.beforeEach(({ chromiumBrowser }) => {
  test.skip(!chromiumBrowser, `the map's DOM is not checked here (it is in CI): ${noChromium()}`);
});

test('the green run writes the specification map: the specification, every requirement, the coverage', async ({
  chromiumBrowser: browser,
}) => {
  const report = readRound(1).report!;
  expect(existsSync(mapOf(1)), `the green run wrote no ${mapOf(1)}`).toBe(true);
  const page = await browser!.newPage();
  await page.goto(pathToFileURL(mapOf(1)).href);
  // The specification itself, rendered.
  await expect(page.locator('#specification h1')).toHaveText('Open Banking Gateway API Specification');
  await expect(page.locator('#specification table').first()).toBeVisible();
  // Every requirement of the catalogue is named, with its verdict of the run.
  const verdicts = new Map(report.requirements.map((r) => [r.id, r.verdict]));
  const rows = await page
    .locator('#requirements tr[data-req]')
    .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-req'), tr.getAttribute('data-verdict')]));
  const shown = new Map(rows as [string, string][]);
  const ids = loadCatalogue().all.map((r) => r.id);
  expect(
    ids.filter((id) => !shown.has(id)),
    'requirements the map does not name',
  ).toEqual([]);
  expect(
    ids.filter((id) => shown.get(id) !== (verdicts.get(id) ?? 'absent')).map((id) => `${id}: ${shown.get(id)}`),
    'requirements shown with another verdict than the run gave',
  ).toEqual([]);
  // Every requirement quoting the specification marks at least one sentence, and its badge links to its row.
  const marked = new Set(
    (
      await page
        .locator('#specification [data-state="judged"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-requirements')))
    ).flatMap((s) => (s ?? '').split(' ')),
  );
  const quoting = loadCatalogue().all.filter((r) => r.quoteFrom === 'spec');
  expect(
    quoting.filter((r) => !marked.has(r.id)).map((r) => r.id),
    'spec quotes marking no sentence',
  ).toEqual([]);
  // The coverage of the run's report is the map's.
  expect(report.coverage, 'conformance.json carries the coverage of the specification').toBeDefined();
  const summary = page.locator('#map-summary');
  await expect(summary).toHaveAttribute('data-normative', String(report.coverage!.normative));
  await expect(summary).toHaveAttribute('data-judged', String(report.coverage!.judged));
  await expect(summary).toHaveAttribute('data-not-explained', String(report.coverage!.notExplained.length));
  expect(await page.locator('#specification [data-state="open"]').count()).toBe(report.coverage!.notExplained.length);
  // Each is listed at the top, leading to its place.
  expect(await page.locator('#not-explained a[href^="#u"]').count()).toBe(report.coverage!.notExplained.length);
  // Not judged but explained: the reason is shown at the sentence.
  await expect(page.locator('#specification [data-state="explained"]').first()).toBeVisible();
  await expect(page.locator('.why').first()).toContainText('not judged, ');
  // Each requirement a test judged leads to that test's result in the Allure report.
  const linked = new Set(
    await page.locator('#requirements tr[data-req]:has(a[data-allure])').evaluateAll((trs) => trs.map((tr) => tr.id)),
  );
  expect(
    report.requirements
      .filter((r) => r.tests.some((t) => t.file))
      .map((r) => r.id)
      .filter((id) => !linked.has(`req-${id}`)),
    'requirements whose tests ran but have no link to the Allure report',
  ).toEqual([]);
  // Every failed requirement is marked failed at its sentence (none in the green run; see the next test).
  for (const r of report.requirements.filter((q) => q.verdict === 'failed' && q.quoteFrom === 'spec'))
    await expect(page.locator(`[data-requirements~="${r.id}"][data-verdict="failed"]`).first()).toBeVisible();
  await page.close();
});

test('a failed requirement is marked failed at its sentence, and its badge says so', async ({
  chromiumBrowser: browser,
}) => {
  const report = structuredClone(readRound(1).report!);
  // The same run, with one requirement quoting a table row and one quoting prose turned failed.
  const mustOfSpec = report.requirements.filter((r) => r.quoteFrom === 'spec' && r.level === 'MUST' && r.quote);
  const failed = [
    mustOfSpec.find((r) => r.quote!.trim().startsWith('|'))!,
    mustOfSpec.find((r) => !r.quote!.trim().startsWith('|'))!,
  ];
  for (const q of report.requirements) if (failed.some((f) => f.id === q.id)) q.verdict = 'failed';
  const file = runDir('green', 'specification-failed.html');
  writeSpecificationMap(report, file, { allureResults: runDir('green-1', 'allure-results') });
  const page = await browser!.newPage();
  await page.goto(pathToFileURL(file).href);
  for (const f of failed) {
    const unit = page.locator(`[data-requirements~="${f.id}"]`).first();
    await expect(unit, `${f.id}'s sentence`).toHaveAttribute('data-verdict', 'failed');
    await expect(page.locator(`a.req[data-req="${f.id}"]`).first()).toHaveAttribute('data-verdict', 'failed');
    await expect(page.locator(`a.req[data-req="${f.id}"]`).first()).toContainText('failed');
    await expect(page.locator(`#req-${f.id.replace(/\./g, '\\.')}`)).toHaveAttribute('data-verdict', 'failed');
  }
  // A failed sentence looks failed: red (#fde2e1), where a passed one is green (#e3f4e6).
  await expect(page.locator(`[data-requirements~="${failed[1].id}"]`).first()).toHaveCSS(
    'background-color',
    'rgb(253, 226, 225)',
  );
  await expect(page.locator('#specification [data-state="judged"][data-verdict="passed"]').first()).toHaveCSS(
    'background-color',
    'rgb(227, 244, 230)',
  );
  await page.close();
});
