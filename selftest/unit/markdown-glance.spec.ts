import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { ConformanceReport, QuotedResult } from '../../harness/reporter/report.js';
import { renderMarkdown } from '../../harness/reporter/markdown.js';

const q = (id: string, verdict: QuotedResult['verdict'], extra: Partial<QuotedResult> = {}): QuotedResult => ({
  id,
  level: 'MUST',
  area: 'consents',
  section: 'Consents',
  text: `the rule of ${id}`,
  verdict,
  tests: [
    {
      title: `a test of ${id}`,
      file: 'tests/consents/create.spec.ts',
      status: verdict === 'untested' ? 'skipped' : verdict,
      message:
        verdict === 'failed'
          ? 'expected a 2xx; got POST /consents → 400 body: {"tppMessages":[{"text":"header Date is missing"}]}'
          : '',
    },
  ],
  ...extra,
});

const report = (scope: ConformanceReport['scope'], verdict: ConformanceReport['verdict']): ConformanceReport => ({
  suite: { name: 'obg-conformance', version: '0.1.0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
  target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: false },
  startedAt: '2026-11-29T01:00:00.000Z',
  finishedAt: '2026-11-29T01:01:00.000Z',
  verdict,
  totals: { passed: 0, failed: 1, warning: 0, skipped: 0, broken: 0, blocked: 2, untested: 0 },
  scope,
  coverage: {
    normative: 100,
    judged: 80,
    explained: 10,
    judgedPercent: 80,
    judgedOrExplainedPercent: 90,
    byArea: {
      consents: { normative: 30, judged: 20, explained: 5, notExplained: 5 },
      payments: { normative: 70, judged: 60, explained: 5, notExplained: 5 },
    },
    notExplained: [],
    unattributed: [],
    stale: [],
    unknown: [],
  },
  requirements: [
    q('consents.create.response', 'failed'),
    q('consents.read.fields', 'blocked', { blockedBy: ['consents.create.response'] }),
    q('consents.status.response', 'blocked', { blockedBy: ['consents.create.response'] }),
  ],
});

test("conformance.md's first screen: scope, certifiable, this run's clauses, the console's hint, the root causes", () => {
  const md = renderMarkdown(report({ narrowed: false, projects: ['consents'], shard: null }, 'not-conformant'));
  const screen = md.split('\n').slice(0, 16).join('\n');
  expect(screen).toContain('# Conformance report: NOT-CONFORMANT (part of a run: consents)');
  expect(screen).toContain(
    '- Scope: part of a run (areas chosen with --project (consents)); areas run: consents (1 of 2)',
  );
  expect(screen).toContain('- Certifiable: no (not a whole run: areas chosen with --project (consents)');
  expect(screen).toContain('- Clauses this run judges: 20 of the 30 normative clauses of its 1 of 2 areas');
  expect(screen).toMatch(/- Hint: the bank's answers name the header Date as required/);
  expect(screen).toContain('## Root causes');
  expect(screen).toContain(
    '- ❌ `consents.create.response` (MUST, failed, blocks 2): the rule of consents.create.response',
  );
  // The whole suite, conformant: no part, certifiable.
  const whole = renderMarkdown({
    ...report({ narrowed: false, projects: [], shard: null }, 'conformant'),
    requirements: [q('consents.create.response', 'passed')],
  });
  expect(whole).toContain('# Conformance report: CONFORMANT\n');
  expect(whole).toContain('- Scope: the whole suite');
  expect(whole).toContain('- Certifiable: yes');
  expect(whole).not.toContain('## Root causes');
});
