import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { judgeCase } from '../proof/judge.js';
import type { ProofCase } from '../proof/plan.js';

const catalogue = loadCatalogue();
const must = catalogue.all.find((r) => r.level === 'MUST')!;
const should = catalogue.all.find((r) => r.level === 'SHOULD')!;
const other = catalogue.all.find((r) => r.level === 'MUST' && r.id !== must.id)!;
const result = (id: string, verdict: RequirementResult['verdict'], message = ''): RequirementResult => ({
  id,
  level: catalogue.byId.get(id)!.level,
  area: catalogue.byId.get(id)!.area,
  section: '',
  text: '',
  verdict,
  tests: [{ title: 't', file: 'f', status: verdict === 'untested' ? 'skipped' : verdict, message }],
});
const fault = (breaks: string[]): ProofCase => ({
  id: 'x.fault',
  kind: 'fault',
  description: 'd',
  breaks,
  warns: [],
  concerns: breaks,
});
const variant = (warns: string[]): ProofCase => ({
  id: 'x.variant',
  kind: 'variant',
  description: 'd',
  breaks: [],
  warns,
  concerns: [must.id],
});
const explained = 'Expected HTTP 400; got GET /x → 200 (application/json) body: {}';
const run = { tests: 3, seconds: 1 };

test('a fault is caught when exactly its MUSTs fail and its SHOULDs warn, with messages', () => {
  const row = judgeCase(
    fault([must.id, should.id]),
    [result(must.id, 'failed', explained), result(should.id, 'warning', explained), result(other.id, 'passed')],
    catalogue,
    run,
  );
  expect(row).toMatchObject({ ok: true, missed: [], stray: [], silent: [] });
});

test('a named requirement that passes or is broken is missed; another that fails is stray; a bare failure is silent', () => {
  const missed = judgeCase(fault([must.id]), [result(must.id, 'broken', explained)], catalogue, run);
  expect(missed.missed).toEqual([`${must.id}: broken (expected failed)`]);
  const stray = judgeCase(
    fault([must.id]),
    [result(must.id, 'failed', explained), result(other.id, 'failed', explained)],
    catalogue,
    run,
  );
  expect(stray.stray).toEqual([`${other.id}: failed — ${explained}`]);
  const silent = judgeCase(fault([must.id]), [result(must.id, 'failed', 'Error')], catalogue, run);
  expect(silent).toMatchObject({ ok: false, silent: [must.id] });
  const unjudged = judgeCase(fault([must.id]), [], catalogue, { ...run, error: 'no test ran for it' });
  expect(unjudged.missed[0]).toBe('the run did not judge this fault: no test ran for it');
});

test('a variant stays conformant: a failure or a break is stray, and so is a warning it does not name', () => {
  expect(judgeCase(variant([]), [result(must.id, 'passed')], catalogue, run).ok).toBe(true);
  expect(judgeCase(variant([should.id]), [result(should.id, 'warning', explained)], catalogue, run).ok).toBe(true);
  const warned = judgeCase(variant([]), [result(should.id, 'warning', explained)], catalogue, run);
  expect(warned.stray).toEqual([`${should.id}: warning — ${explained}`]);
  const failed = judgeCase(variant([should.id]), [result(must.id, 'failed', explained)], catalogue, run);
  expect(failed).toMatchObject({ ok: false, stray: [`${must.id}: failed — ${explained}`] });
});
