/**
 * The hook that makes Playwright run a file's tests in chunks (docs/playwright-internals.md). Fully
 * parallel, every test is a group of its own, and a worker binds the whole file (every test the
 * self-proof's plan declares in it: over a thousand in the largest) to its project for each group:
 * in the self-proof that cost grew with the square of a file's tests (about a seventh of its
 * workers' CPU). Tests under a `beforeAll` in a parallel file are dispatched in as many groups per
 * file as there are workers instead. Private behaviour: Playwright documents that hooks run once
 * per worker, not that a hook changes how tests are grouped. Declared empty, once per file or
 * describe (harness/proof.ts). Canary: selftest/unit/playwright-internals.spec.ts.
 */
export function oneGroupPerWorkerAndFile(): void {}
