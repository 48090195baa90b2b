/**
 * allure-playwright's results writer, reached through its reporter's private `allureRuntime`
 * (docs/playwright-internals.md): harness/reporter/allure.ts puts a writer without an fsync per
 * file in its place. Where a release of allure-playwright keeps it elsewhere, undefined: Allure's
 * own writer stays (the same files, more slowly). Canary: selftest/unit/playwright-internals.spec.ts.
 */
export function allureRuntimeOf<W extends object>(reporter: object): { writer: W } | undefined {
  const runtime = (reporter as { allureRuntime?: { writer?: unknown } }).allureRuntime;
  return runtime && typeof runtime.writer === 'object' && runtime.writer ? (runtime as { writer: W }) : undefined;
}
