import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';
import { allureRuntimeOf, quietHookSkips } from '../playwright-internals/allure-runtime.js';

/** The part of Allure's results writer (allure-js-commons) the reporter calls. */
interface Writer {
  writeAttachment(name: string, content: Buffer): void;
  writeAttachmentFromPath(name: string, from: string): void;
  writeResult(result: { uuid: string }): void;
  writeGroup(result: { uuid: string }): void;
  writeEnvironmentInfo(info: unknown): void;
  writeCategoriesDefinitions(categories: unknown): void;
  writeGlobals(name: string, info: unknown): void;
}

/**
 * Allure's own Playwright reporter, writing the results of the tests without flushing each file
 * to the disk.
 *
 * Allure's file writer writes every result and attachment to a temporary file, flushes it to the
 * disk (fsync) and renames it: about 7,000 files in a whole run, each flush blocking the run's
 * main process (which hands the tests to the workers) for as long as the disk takes; on a busy
 * machine that was a fifth of the main process's time. Nothing reads the results before the run
 * ends, so the test results and attachments are written once each, as they are (the same files
 * with the same content); the few files of the run itself still go through Allure's writer.
 */
class ResultsWriter implements Writer {
  private made = false;

  constructor(
    private readonly dir: string,
    private readonly allure: Writer,
  ) {}

  private path(name: string): string {
    if (!this.made) mkdirSync(this.dir, { recursive: true });
    this.made = true;
    return join(this.dir, name);
  }

  writeAttachment(name: string, content: Buffer): void {
    writeFileSync(this.path(name), content);
  }

  writeAttachmentFromPath(name: string, from: string): void {
    copyFileSync(from, this.path(name));
  }

  writeResult(result: { uuid: string }): void {
    writeFileSync(this.path(`${result.uuid}-result.json`), JSON.stringify(result), 'utf8');
  }

  writeGroup(result: { uuid: string }): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result), 'utf8');
  }

  writeEnvironmentInfo(info: unknown): void {
    this.allure.writeEnvironmentInfo(info);
  }

  writeCategoriesDefinitions(categories: unknown): void {
    this.allure.writeCategoriesDefinitions(categories);
  }

  writeGlobals(name: string, info: unknown): void {
    this.allure.writeGlobals(name, info);
  }
}

export default class ConformanceAllureReporter extends AllureReporter {
  constructor(...args: ConstructorParameters<typeof AllureReporter>) {
    super(...args);
    // A test skipped in a beforeEach (not claimed) is no "global error" of the run.
    quietHookSkips(this);
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    // allure-playwright's private runtime (harness/playwright-internals/allure-runtime.ts).
    const runtime = allureRuntimeOf<Writer>(this);
    if (runtime) runtime.writer = new ResultsWriter(this.options.resultsDir ?? 'allure-results', runtime.writer);
  }
}
