import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Target } from '../../harness/config/target.js';
import {
  acceptedKind,
  CONTROLS,
  createdIdOf,
  operationAt,
  requestKind,
  SIGNED_CONTROL,
} from '../../harness/operations/controls.js';
import type { Exchange } from '../../harness/http/response.js';
import { OPERATIONS } from '../../harness/operations/table.js';
import {
  ACCEPTED_ANNOTATION,
  CONTROL_ANNOTATION,
  REFUSED_KIND_ANNOTATION,
  REQUIREMENT_ANNOTATION,
} from '../../harness/catalogue/req.js';
import { foldRequirements, seenAccepted } from '../../harness/reporter/fold.js';

const catalogue = loadCatalogue();
const all = new Set(catalogue.all.flatMap((r) => r.features));

test('every operation names its positive control, a requirement of the catalogue', () => {
  for (const o of OPERATIONS) expect(catalogue.byId.has(o.control), `${o.id} → ${o.control}`).toBe(true);
  for (const o of OPERATIONS) expect(CONTROLS[o.id], o.id).toBe(o.control);
  for (const [op, id] of Object.entries(CONTROLS)) expect(catalogue.byId.has(id), `${op} → ${id}`).toBe(true);
});

test('a request is matched to its operation under the profile paths', () => {
  const target = {
    baseUrl: 'http://127.0.0.1:1/bank',
    authUrl: 'http://127.0.0.1:1',
    profile: loadProfile('reference'),
  } as unknown as Target;
  const at = (m: string, p: string) => operationAt(target, m, `http://127.0.0.1:1/bank/${p}?x=1`);
  expect(at('POST', 'psd2/consent/v1/consents')).toBe('consents.create');
  expect(at('GET', 'psd2/consent/v1/consents/abc/status')).toBe('consents.status');
  expect(at('POST', 'psd2/paymentinitiation/v1/payments/sepa-credit-transfers')).toBe('payments.initiate');
  expect(at('GET', 'psd2/paymentinitiation/v1/signing-baskets/b1/status')).toBe('signing-baskets.status');
  expect(at('GET', 'psd2/paymentinitiation/v1/payments/sepa-credit-transfers/p1')).toBe('payments.read');
  expect(at('PUT', 'iso/payments/confirm')).toBe('direct-debit.confirm');
  expect(at('GET', 'somewhere/else')).toBeUndefined();
  expect(operationAt(target, 'POST', 'http://127.0.0.1:1/connect/token')).toBe('oauth.token');
});

test('a request is of the kind of its operation, payment product, body shape and signature; a signed one is controlled by a signed call too', () => {
  const target = {
    baseUrl: 'http://127.0.0.1:1/bank',
    authUrl: 'http://127.0.0.1:1',
    profile: loadProfile('reference'),
  } as unknown as Target;
  const call = (p: string, headers: Record<string, string> = {}, requestBody?: string) =>
    requestKind(target, {
      seq: 1,
      method: 'POST',
      url: `http://127.0.0.1:1/bank/psd2/paymentinitiation/v1/${p}`,
      requestHeaders: { 'Content-Type': 'application/json', ...headers },
      requestBody,
    } as unknown as Exchange)!;
  const sct = call('payments/sepa-credit-transfers', {}, '{}');
  expect(sct.operation).toBe('payments.initiate');
  expect(sct.controls).toEqual(['payments.initiate.response']);
  expect(call('payments/domestic', {}, '{}').key, 'another product').not.toBe(sct.key);
  expect(call('bulk-payments/sepa-credit-transfers', {}, '{}').key, 'another service').not.toBe(sct.key);
  expect(call('payments/sepa-credit-transfers', { 'Content-Type': 'application/xml' }, '<x/>').key).not.toBe(sct.key);
  expect(call('payments/sepa-credit-transfers', { 'x-request-id': 'other' }, '{"a":1}').key, 'same kind').toBe(sct.key);
  const signed = call('payments/sepa-credit-transfers', { Signature: 'keyId="x"' }, '{}');
  expect(signed.key, 'signed is another kind').not.toBe(sct.key);
  expect(signed.controls).toEqual(['payments.initiate.response', SIGNED_CONTROL]);
});

const testCase = (id: string, controls: string[] = []) =>
  ({
    location: { file: fromRoot('tests', 'x.spec.ts'), line: 1, column: 1 },
    titlePath: () => ['', 'conformance', 'x.spec.ts', id],
    title: id,
    timeout: 1000,
    annotations: [
      { type: REQUIREMENT_ANNOTATION, description: id },
      ...controls.map((c) => ({ type: CONTROL_ANNOTATION, description: c })),
    ],
  }) as unknown as TestCase;
const result = (status: 'passed' | 'failed', message = '') =>
  ({
    status,
    errors: message ? [{ message }] : [],
    annotations: [],
    duration: 1,
    startTime: new Date(),
  }) as unknown as TestResult;

test('a passed refusal whose positive control did not pass is blocked by it, naming the root cause', () => {
  const [control, refusal, chained] = [
    'consents.create.response',
    'consents.create.required-fields',
    'consents.read.fields',
  ].map((id) => catalogue.byId.get(id)!);
  const fold = (controlStatus: 'passed' | 'failed', options = {}) =>
    foldRequirements(
      [control, refusal, chained],
      [
        { test: testCase(control.id), result: result(controlStatus, 'Error: Expected a success (HTTP 2xx)') },
        { test: testCase(refusal.id, [control.id]), result: result('passed') },
        { test: testCase(chained.id, [refusal.id]), result: result('passed') },
      ],
      all,
      options,
    );
  const failed = fold('failed');
  expect(failed.map((r) => [r.id, r.verdict, r.blockedBy])).toEqual([
    [control.id, 'failed', undefined],
    [refusal.id, 'blocked', [control.id]],
    // A control that is itself blocked passes its root cause on.
    [chained.id, 'blocked', [control.id]],
  ]);
  expect(failed[1].tests[0].message).toContain(`its positive control ${control.id} did not pass here (failed)`);
  expect(fold('passed').map((r) => r.verdict)).toEqual(['passed', 'passed', 'passed']);
  // A control not run at all blocks too, unless the fold is told it is judged elsewhere.
  const alone = (options = {}) =>
    foldRequirements([refusal], [{ test: testCase(refusal.id, [control.id]), result: result('passed') }], all, options);
  expect(alone()[0].verdict).toBe('blocked');
  expect(alone()[0].tests[0].message).toContain('(not run: run its area too)');
  expect(alone({ unrunControls: 'keep' })[0].verdict).toBe('passed');
});

test('a passed refusal whose positive control was not judged here (skipped) is not judged either, never passed or blocked', () => {
  const [control, refusal] = ['accounts.transaction.details', 'accounts.transaction.unknown'].map((id) =>
    catalogue.byId.get(id)!,
  );
  const skippedControl = {
    ...result('passed'),
    status: 'skipped',
    annotations: [{ type: 'skip', description: 'not judged: the list is a download link' }],
  } as unknown as TestResult;
  const skipTest = {
    ...testCase(control.id),
    annotations: [
      { type: REQUIREMENT_ANNOTATION, description: control.id },
      { type: 'skip', description: 'not judged: the list is a download link' },
    ],
  } as unknown as TestCase;
  const [c, r] = foldRequirements(
    [control, refusal],
    [
      { test: skipTest, result: skippedControl },
      { test: testCase(refusal.id, [control.id]), result: result('passed') },
    ],
    all,
  );
  expect(c.verdict).toBe('skipped');
  expect(r.verdict).toBe('skipped');
  expect(r.tests[0].message).toContain(`its positive control ${control.id} was not judged here`);
});

test('a failed refusal (another code, or accepted) whose control did not pass is blocked by it; one whose control passed stays failed', () => {
  const [control, refusal, code] = [
    'consents.create.response',
    'consents.create.required-fields',
    'consents.limits.frequency-min',
  ].map((id) => catalogue.byId.get(id)!);
  const fold = (controlStatus: 'passed' | 'failed') =>
    foldRequirements(
      [control, refusal, code],
      [
        { test: testCase(control.id), result: result(controlStatus, 'Error: Expected a success (HTTP 2xx)') },
        { test: testCase(refusal.id, [control.id]), result: result('failed', 'Error: Expected a refusal; got 201') },
        { test: testCase(code.id, [control.id]), result: result('failed', 'Error: Expected HTTP 400; got 418') },
      ],
      all,
    );
  const blocked = fold('failed');
  expect(blocked.map((r) => [r.id, r.verdict, r.blockedBy])).toEqual([
    [control.id, 'failed', undefined],
    [refusal.id, 'blocked', [control.id]],
    [code.id, 'blocked', [control.id]],
  ]);
  expect(blocked[2].tests[0].message).toContain('what the refusal check saw: Error: Expected HTTP 400; got 418');
  expect(fold('passed').map((r) => r.verdict)).toEqual(['passed', 'failed', 'failed']);
});

test('a control that warned (a SHOULD broken) is no control: the refusal is blocked by it', () => {
  const [control, refusal] = ['consents.delete.terminated', 'consents.delete.twice'].map((id) =>
    catalogue.byId.get(id)!,
  );
  expect(control.level).toBe('SHOULD');
  const [c, r] = foldRequirements(
    [control, refusal],
    [
      { test: testCase(control.id), result: result('failed', 'Error: expected terminatedByTpp') },
      { test: testCase(refusal.id, [control.id]), result: result('passed') },
    ],
    all,
  );
  expect(c.verdict).toBe('warning');
  expect([r.verdict, r.blockedBy]).toEqual(['blocked', [control.id]]);
  expect(r.tests[0].message).toContain('did not pass here (warning)');
});

test('an acceptance is a 2xx of the same kind, naming the created resource where the operation creates one', () => {
  const target = {
    baseUrl: 'http://127.0.0.1:1/bank',
    authUrl: 'http://127.0.0.1:1',
    profile: loadProfile('reference'),
  } as unknown as Target;
  const exchange = (p: string, status: number, responseBody: string, method = 'POST') =>
    ({
      seq: 1,
      method,
      url: `http://127.0.0.1:1/bank/psd2/${p}`,
      requestHeaders: { 'Content-Type': 'application/json' },
      requestBody: '{}',
      status,
      responseBody,
    }) as unknown as Exchange;
  const create = 'consent/v1/consents';
  expect(createdIdOf('consents.create')).toBe('consentId');
  expect(createdIdOf('payments.initiate')).toBe('paymentId');
  expect(createdIdOf('consents.read')).toBeUndefined();
  const kind = requestKind(target, exchange(create, 201, ''))!.key;
  // Accepted with its id, whatever else the answer lacks (a missing _links.scaStatus is the control's own failure).
  expect(acceptedKind(target, exchange(create, 201, '{"consentId":"c1","consentStatus":"received"}'))).toBe(kind);
  expect(acceptedKind(target, exchange(create, 201, '{"consentStatus":"received"}')), 'no id').toBeUndefined();
  expect(acceptedKind(target, exchange(create, 400, '{"consentId":"c1"}')), 'refused').toBeUndefined();
  // A read creates nothing: a 2xx is its acceptance.
  expect(acceptedKind(target, exchange('consent/v1/consents/c1', 200, '{}', 'GET'))).toBeDefined();
});

test("a refusal is controlled by its kind seen accepted anywhere in the run, not by its control requirement's shape rules", () => {
  const [control, refusal, other] = [
    'consents.create.response',
    'consents.create.account-reference-invalid',
    'consents.create.required-fields',
  ].map((id) => catalogue.byId.get(id)!);
  const kind = 'consents.create |  | json | unsigned';
  const refusing = (id: string, status: 'passed' | 'failed', message = '') => ({
    test: testCase(id),
    result: {
      ...result(status, message),
      annotations: [
        { type: CONTROL_ANNOTATION, description: control.id },
        { type: REFUSED_KIND_ANNOTATION, description: kind },
      ],
    } as unknown as TestResult,
  });
  const controlTest = (accepted: boolean) => ({
    test: testCase(control.id),
    result: {
      ...result('failed', 'Error: expected _links.scaStatus'),
      annotations: accepted ? [{ type: ACCEPTED_ANNOTATION, description: kind }] : [],
    } as unknown as TestResult,
  });
  const fold = (accepted: boolean) =>
    foldRequirements(
      [control, refusal, other],
      [
        controlTest(accepted),
        refusing(refusal.id, 'failed', 'Error: Expected a refusal; got 201 Created'),
        refusing(other.id, 'passed'),
      ],
      all,
    );
  // The control failed on a link only, the valid create accepted with its id: the refusals are judged.
  expect(fold(true).map((r) => [r.id, r.verdict])).toEqual([
    [control.id, 'failed'],
    [refusal.id, 'failed'],
    [other.id, 'passed'],
  ]);
  // Never seen accepted (the valid create refused): blocked by the control, the refusal's own finding kept whole.
  const blocked = fold(false);
  expect(blocked.map((r) => [r.id, r.verdict, r.blockedBy])).toEqual([
    [control.id, 'failed', undefined],
    [refusal.id, 'blocked', [control.id]],
    [other.id, 'blocked', [control.id]],
  ]);
  expect(blocked[1].tests[0].message).toContain(`no call of its kind (${kind}) was seen accepted in the run`);
  expect(blocked[1].tests[0].message).toContain('Expected a refusal; got 201 Created');
});

test('a shard blocks a refusal of a kind it did not see accepted, keeping what it judged for the merge', () => {
  const [control, refusal] = ['consents.create.response', 'consents.create.required-fields'].map((id) =>
    catalogue.byId.get(id)!,
  );
  const kind = 'consents.create |  | json | unsigned';
  const outcomes = [
    { test: testCase(control.id), result: result('failed', 'Error: the valid create was refused') },
    {
      test: testCase(refusal.id),
      result: {
        ...result('passed'),
        annotations: [
          { type: CONTROL_ANNOTATION, description: control.id },
          { type: REFUSED_KIND_ANNOTATION, description: kind },
        ],
      } as unknown as TestResult,
    },
  ];
  const shard = foldRequirements([control, refusal], outcomes, all, { unrunControls: 'keep', deferUnseen: true });
  // Blocked in the shard, as in any run: a shard of a bank refusing everything passes no refusal.
  expect(shard[1].verdict).toBe('blocked');
  expect(shard[1].tests[0].deferred?.status).toBe('passed');
  // A whole run folds no deferral.
  expect(foldRequirements([control, refusal], outcomes, all)[1].tests[0].deferred).toBeUndefined();
});

test('an unknown product refused is controlled by the same call of any product accepted; a known one by its own', () => {
  const target = {
    baseUrl: 'http://127.0.0.1:1/bank',
    authUrl: 'http://127.0.0.1:1',
    profile: loadProfile('reference'),
  } as unknown as Target;
  const call = (product: string) =>
    requestKind(target, {
      seq: 1,
      method: 'POST',
      url: `http://127.0.0.1:1/bank/psd2/paymentinitiation/v1/payments/${product}`,
      requestHeaders: { 'Content-Type': 'application/json' },
      requestBody: '{}',
    } as unknown as Exchange)!.key;
  const sct = call('sepa-credit-transfers');
  expect(sct).toBe('payments.initiate | payments/sepa-credit-transfers | json | unsigned');
  expect(call('instant-moon-transfers')).toBe('payments.initiate | * | json | unsigned');
  expect(seenAccepted(call('instant-moon-transfers'), new Set([sct]))).toBe(true);
  expect(seenAccepted(call('domestic'), new Set([sct])), 'a known product needs its own').toBe(false);
  expect(seenAccepted(call('instant-moon-transfers'), new Set([sct.replace('json', 'xml')]))).toBe(false);
  expect(seenAccepted(sct, undefined)).toBe(false);
});
