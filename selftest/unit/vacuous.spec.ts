import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';

/** Every spec file under `dir`. */
const specsUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specsUnder(join(dir, e.name)) : e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );

const SPECS = specsUnder(fromRoot('tests')).map((file) => ({
  file: relative(fromRoot(), file),
  source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
}));

/** The name a call is made under: `expect` for expect(…), expect.soft(…), expect.poll(…); `skip` for test.skip(…). */
function calleeName(call: ts.CallExpression): string | undefined {
  let e: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'expect')
    return 'expect';
  if (ts.isPropertyAccessExpression(e)) e = e.name;
  return ts.isIdentifier(e) ? e.text : undefined;
}

/** Whether `node` (outside the functions it declares, unless `inFunctions`) calls one of `names`. */
function calls(node: ts.Node, names: string[], inFunctions = false): boolean {
  let found = false;
  const visit = (n: ts.Node) => {
    if (found || (!inFunctions && n !== node && ts.isFunctionLike(n))) return;
    if (ts.isCallExpression(n) && names.includes(calleeName(n) ?? '')) found = true;
    else n.forEachChild(visit);
  };
  visit(node);
  return found;
}

/** The callbacks of the `test(title, [details,] async (…) => {…})` calls of a file: the test bodies. */
function testBodies(source: ts.SourceFile): ts.Block[] {
  const bodies: ts.Block[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'test') {
      const last = n.arguments[n.arguments.length - 1];
      if (last && (ts.isArrowFunction(last) || ts.isFunctionExpression(last)) && ts.isBlock(last.body))
        bodies.push(last.body);
    }
    n.forEachChild(visit);
  };
  visit(source);
  return bodies;
}

/** What judges, or says it does not: an assertion, or notJudged (harness/test.ts). */
const JUDGING = ['expect', 'notJudged'];

/**
 * The returns of a test body (outside the functions it declares) before which nothing was judged:
 * no assertion and no not-judged call in the statements that precede it, in its own block or any
 * block around it up to the body, nor in the returned expression.
 */
function vacuousReturns(body: ts.Block): ts.ReturnStatement[] {
  const found: ts.ReturnStatement[] = [];
  const judgedBefore = (ret: ts.ReturnStatement): boolean => {
    if (ret.expression && calls(ret.expression, JUDGING)) return true;
    for (let child: ts.Node = ret, parent = ret.parent; child !== body; child = parent, parent = parent.parent) {
      if (ts.isBlock(parent) || ts.isSourceFile(parent)) {
        const before = parent.statements.slice(0, parent.statements.indexOf(child as ts.Statement));
        if (before.some((s) => calls(s, JUDGING))) return true;
      }
    }
    return false;
  };
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isReturnStatement(n) && !judgedBefore(n)) found.push(n);
    n.forEachChild(visit);
  };
  body.forEachChild(visit);
  return found;
}

test('no test body returns before it judged anything: an empty set is "not judged", never a pass', () => {
  const offences: string[] = [];
  for (const { file, source } of SPECS)
    for (const body of testBodies(source))
      for (const ret of vacuousReturns(body)) {
        const { line } = source.getLineAndCharacterOfPosition(ret.getStart());
        offences.push(`${file}:${line + 1}: ${ret.parent.getText().split('\n')[0].slice(0, 100)}`);
      }
  expect(
    offences,
    'end a check that has nothing to judge with notJudged(why) (harness/test.ts), or judge something before returning',
  ).toEqual([]);
});

test('the lint sees a bare return before any assertion, and lets one after an assertion or a notJudged pass', () => {
  const body = (text: string) => testBodies(ts.createSourceFile('x.spec.ts', text, ts.ScriptTarget.Latest, true))[0];
  const count = (text: string) => vacuousReturns(body(text)).length;
  expect(count(`test('t', async () => { const r = await f(); if (!r) return; expect(r).toBe(1); });`)).toBe(1);
  expect(
    count(`test('t', async () => { await prerequisite('x', 's', async () => expect(a).toBe(1)); return; });`),
  ).toBe(1);
  expect(count(`test('t', async () => { await expect(a).toBeRefused(); if (!b) return; });`)).toBe(0);
  expect(count(`test('t', async () => { if (!b) { await expect.soft(a).toSucceed(); return; } });`)).toBe(0);
  expect(count(`test('t', async () => { if (!b) return notJudged('nothing'); });`)).toBe(0);
  expect(count(`test('t', async () => { const g = () => { return 1; }; expect(g()).toBe(1); });`)).toBe(0);
});

/** Requirements whose rule is a refusal: "is refused", "is rejected", "refuses". */
const REFUSAL = /\b(is|are) (refused|rejected)\b|\brefuses\b|\brejects\b/i;

/** What controls a refusal: a refusal matcher or a refusal noted by hand (its request's kind, harness/expect.ts), a declared control, the rules over the table. */
const CONTROLLED = [
  'toBeRefused',
  'toBeTppError',
  'toHaveStatus',
  'dependsOnControl',
  'refusalTests',
  'headerRefused',
  'noteRefusal',
];

/**
 * The authorise-page refusals (tests/oauth/authorize.spec.ts, the redirect-URI whitelist of
 * tests/oauth/redirect.spec.ts) are judged from the page the PSU agent sees; they are rebuilt on
 * the bank's own answer to the authorise request with its control, and stay outside this lint
 * until then.
 */
const AUTHORISE_PAGE = ['tests/oauth/authorize.spec.ts', 'tests/oauth/redirect.spec.ts'];

/** The tests of a file that name a refusal requirement and neither use a refusal matcher nor declare a control. */
function uncontrolledRefusals(source: ts.SourceFile, isRefusal: (id: string) => boolean): string[] {
  // The file's own helpers that judge refusals: a test calling one is controlled through it.
  const helpers = new Set<string>();
  source.forEachChild((s) => {
    const name = ts.isFunctionDeclaration(s)
      ? s.name?.text
      : ts.isVariableStatement(s)
        ? s.declarationList.declarations.map((d) => (ts.isIdentifier(d.name) ? d.name.text : '')).join()
        : undefined;
    if (name && calls(s, CONTROLLED, true)) helpers.add(name);
  });
  const offences: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'test') {
      const ids = n.arguments
        .filter((a): a is ts.CallExpression => ts.isCallExpression(a) && calleeName(a) === 'req')
        .flatMap((a) => a.arguments.filter(ts.isStringLiteral).map((s) => s.text))
        .filter(isRefusal);
      if (ids.length && !calls(n, [...CONTROLLED, ...helpers], true)) {
        const { line } = source.getLineAndCharacterOfPosition(n.getStart());
        offences.push(`${line + 1}: ${ids.join(', ')}`);
      }
    }
    n.forEachChild(visit);
  };
  visit(source);
  return offences;
}

test('every refusal requirement is judged by a refusal matcher or declares its positive control', () => {
  const catalogue = loadCatalogue();
  const isRefusal = (id: string) => REFUSAL.test(catalogue.byId.get(id)?.text ?? '');
  const offences = SPECS.filter(({ file }) => !AUTHORISE_PAGE.includes(file)).flatMap(({ file, source }) =>
    uncontrolledRefusals(source, isRefusal).map((o) => `${file}:${o}`),
  );
  expect(
    offences,
    'judge a refusal with toBeRefused, toBeTppError or toHaveStatus(4xx), or name its control with dependsOnControl(id)',
  ).toEqual([]);
});

test('the refusal lint sees a refusal judged by hand without a control, and lets a matcher, a helper or a declared control pass', () => {
  const count = (text: string) =>
    uncontrolledRefusals(ts.createSourceFile('x.spec.ts', text, ts.ScriptTarget.Latest, true), (id) => id === 'r.x.y')
      .length;
  expect(count(`test('t', req('r.x.y'), async () => { expect((await call()).status).toBe(400); });`)).toBe(1);
  expect(count(`test('t', req('r.x.y'), async () => { await expect(await call()).toBeRefused(); });`)).toBe(0);
  expect(count(`test('t', req('r.x.y'), async () => { dependsOnControl('c.x.y'); expect(s).toBe(400); });`)).toBe(0);
  expect(
    count(`const h = async (r) => expect(r).toBeTppError(400);\ntest('t', req('r.x.y'), async () => { await h(r); });`),
  ).toBe(0);
  expect(count(`test('t', req('o.x.y'), async () => { expect(s).toBe(400); });`)).toBe(0);
});
