import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/catalogue.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import type { Fault } from '../../sandbox/faults/fault.js';
import { judgeFault } from '../matrix/judge.js';

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
const fault = (breaks: string[]): Fault => ({
  id: 'x.fault',
  description: 'd',
  projects: [],
  breaks,
  install: () => {},
});
const explained = 'Expected HTTP 400; got GET /x → 200 (application/json) body: {}';

test('a fault is caught when exactly its MUSTs fail and its SHOULDs warn, with messages', () => {
  const row = judgeFault(
    fault([must.id, should.id]),
    [result(must.id, 'failed', explained), result(should.id, 'warning', explained), result(other.id, 'passed')],
    catalogue,
    1,
  );
  expect(row).toMatchObject({ caught: true, missed: [], stray: [], silent: [] });
});

test('a named requirement that passes or is broken is missed; another that fails is stray; a bare failure is silent', () => {
  const missed = judgeFault(fault([must.id]), [result(must.id, 'broken', explained)], catalogue, 1);
  expect(missed.missed).toEqual([`${must.id}: broken (expected failed)`]);
  const stray = judgeFault(
    fault([must.id]),
    [result(must.id, 'failed', explained), result(other.id, 'failed', explained)],
    catalogue,
    1,
  );
  expect(stray.stray).toEqual([`${other.id}: failed — ${explained}`]);
  const silent = judgeFault(fault([must.id]), [result(must.id, 'failed', 'Error')], catalogue, 1);
  expect(silent).toMatchObject({ caught: false, silent: [must.id] });
  const unjudged = judgeFault(fault([must.id]), [], catalogue, 0, 'setup failed');
  expect(unjudged.missed[0]).toBe('the run did not judge this fault: setup failed');
});
