import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { parse } from 'yaml';
import { fromRoot } from '../../harness/config/paths.js';

/** The commands docs/ci.md documents for sharded CI (between its ci-commands markers), as patterns. */
function documentedCommands(): { line: string; pattern: RegExp }[] {
  const readme = readFileSync(fromRoot('docs', 'ci.md'), 'utf8');
  const block = /<!-- ci-commands:start -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block, 'docs/ci.md documents the CI commands between <!-- ci-commands:start --> and end').toBeTruthy();
  return block!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      // The words before the first placeholder (<i>/<n>, <folder>) must appear, followed by an argument.
      const [head, ...rest] = line.split('<');
      const source = head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + (rest.length ? '\\S+' : '(\\s|$)');
      return { line, pattern: new RegExp(`(^|\\s|;)${source}`) };
    });
}

type Job = Record<string, unknown>;

test('the GitHub Actions pipeline: a matrix of shards, then a merge job that publishes the report and fails on a regression', () => {
  const wf = parse(readFileSync(fromRoot('docs/ci/github-actions.yml'), 'utf8')) as { jobs: Record<string, Job> };
  const steps = (j: Job) => (j.steps as { run?: string; uses?: string; 'continue-on-error'?: boolean }[]) ?? [];
  const runs = Object.values(wf.jobs).flatMap((j) => steps(j).flatMap((s) => (s.run ? [s.run] : [])));
  for (const c of documentedCommands())
    expect(
      runs.some((r) => c.pattern.test(r)),
      `a step runs "${c.line}"`,
    ).toBe(true);
  const shard = Object.entries(wf.jobs).find(([, j]) => steps(j).some((s) => s.run?.includes('--shard=')))!;
  expect((shard[1].strategy as { matrix: { shard: number[] } }).matrix.shard.length).toBeGreaterThan(1);
  const merge = Object.values(wf.jobs).find((j) =>
    steps(j).some((s) => s.run?.startsWith('npx obg-conformance merge')),
  )!;
  expect([merge.needs].flat()).toContain(shard[0]);
  expect(merge.if).toBe('always()');
  const mergeStep = steps(merge).find((s) => s.run?.startsWith('npx obg-conformance merge'))!;
  expect(mergeStep['continue-on-error'], 'the merge step fails the pipeline').toBeUndefined();
  expect(steps(merge).some((s) => s.uses?.startsWith('actions/upload-artifact'))).toBe(true);
});

test('the GitLab CI pipeline: parallel shards, then a merge job that publishes the report and fails on a regression', () => {
  const ci = parse(readFileSync(fromRoot('docs/ci/gitlab-ci.yml'), 'utf8')) as Record<string, Job>;
  const jobs = Object.entries(ci).filter(([, j]) => j && typeof j === 'object' && 'script' in j);
  const scripts = (j: Job) =>
    [j.before_script, j.script, (ci.default as Job | undefined)?.before_script]
      .flat()
      .filter((s) => typeof s === 'string') as string[];
  for (const c of documentedCommands())
    expect(
      jobs.some(([, j]) => scripts(j).some((s) => c.pattern.test(s))),
      `a job runs "${c.line}"`,
    ).toBe(true);
  const shard = jobs.find(([, j]) => scripts(j).some((s) => s.includes('--shard=')))!;
  expect(shard[1].parallel).toBeGreaterThan(1);
  const merge = jobs.find(([, j]) => scripts(j).some((s) => s.startsWith('npx obg-conformance merge')))!;
  expect((merge[1].needs as { job: string }[]).map((n) => n.job)).toContain(shard[0]);
  expect(merge[1].when).toBe('always');
  expect(merge[1].allow_failure, 'the merge job fails the pipeline').toBeUndefined();
  expect((merge[1].artifacts as { reports: { junit: string } }).reports.junit).toBe('reports/junit.xml');
});
