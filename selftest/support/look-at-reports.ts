import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, type Browser, type BrowserContext } from '@playwright/test';
import { buildAllureHtml } from '../../scripts/allure-html.mjs';
import { allureResults } from './one-verdict.js';

/*
 * The reports looked at, not assumed: the Allure report (the one file from disk, the folder served
 * on 127.0.0.1) and the specification map opened in Chromium, every request outside the machine
 * recorded and refused.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain',
};

/** A static server of `dir` on 127.0.0.1 (port 0). */
async function serve(dir: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(dir) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A context that lets a page load from disk, data and 127.0.0.1 only; the rest recorded and refused. */
async function localContext(browser: Browser, outside: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url) || /^https?:\/\/127\.0\.0\.1[:/]/.test(url)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return context;
}

/**
 * Builds the Allure HTML of a run's folder and opens it and the map in Chromium: the first screen
 * shows the verdict (`title`, as conformance.md's title says it), a blocked test reads blocked,
 * the map links a blocked requirement's test into the one-file report (which opens from disk),
 * and no page asks anything of a host outside the machine. Returns the outside requests (none).
 */
export async function lookAtReports(browser: Browser, reportsDir: string, title: RegExp): Promise<string[]> {
  expect(buildAllureHtml(reportsDir), 'the Allure HTML builds').toEqual([]);
  const blocked = allureResults(reportsDir).find((r) =>
    r.labels?.some((l) => l.name === 'verdict' && l.value === 'blocked'),
  );
  expect(blocked, 'a blocked test in the Allure results').toBeDefined();
  const story = blocked!.labels!.find((l) => l.name === 'story')!.value;
  const id = createHash('md5')
    .update((blocked as unknown as { uuid: string }).uuid)
    .digest('hex');
  const outside: string[] = [];
  const context = await localContext(browser, outside);
  const { server, base } = await serve(reportsDir);
  try {
    const page = await context.newPage();
    for (const url of [
      pathToFileURL(join(reportsDir, 'allure-report.html')).href,
      `${base}/allure-report/index.html`,
    ]) {
      await page.goto(url);
      await expect(page, `${url}: the verdict in the title`).toHaveTitle(title);
      await expect(page.getByText(title).first(), `${url}: the verdict on the first screen`).toBeInViewport();
    }
    // The map's link to a blocked requirement's test opens it from disk, and it reads blocked.
    await page.goto(pathToFileURL(join(reportsDir, 'specification.html')).href);
    const row = page.locator(`tr[data-req="${story}"]`);
    await expect(row, `${story} in the map`).toHaveAttribute('data-verdict', 'blocked');
    const link = row.locator(`a[data-allure="${id}"]`);
    await expect(link).toHaveAttribute('href', `allure-report.html#/${id}`);
    await expect(row).toContainText('(blocked)');
    await link.click();
    await expect(page.getByText('[blocked by ').first(), 'the blocked test says by what').toBeVisible();
    await expect(page.getByText('Skipped', { exact: true }).first(), 'its status: not judged').toBeVisible();
    await expect(page.getByText('Passed', { exact: true })).toHaveCount(0);
    await page.close();
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return outside;
}
