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
  // The generated phase's refusal checks: each notes its refusals in the ledger (refusedWithout,
  // harness/properties/judge.ts), so a table of refusals is controlled as any refusal is.
  'consentRefused',
  'basketRefused',
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

/** Whether `n` reads one of `names` as a value (a property's name is no read of a variable). */
function reads(n: ts.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  const visit = (m: ts.Node) => {
    if (found) return;
    const named =
      (ts.isPropertyAccessExpression(m.parent) && m.parent.name === m) ||
      (ts.isPropertyAssignment(m.parent) && m.parent.name === m);
    if (ts.isIdentifier(m) && names.has(m.text) && !named) found = true;
    else m.forEachChild(visit);
  };
  visit(n);
  return found;
}

/** Whether `n` sits in the callback of a `prerequisite(…)` (a step that blocks, never fails, its test). */
const inPrerequisite = (n: ts.Node): boolean => {
  for (let p = n.parent; p; p = p.parent)
    if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && p.expression.text === 'prerequisite') return true;
  return false;
};

/** What checks an answer before it is read: its success asserted or required, or its requirement's schema. */
const CHECKS_ANSWER = ['requireSuccess', 'toSucceed', 'toMatchSchema', 'prerequisite', 'toHaveStatus'];

/**
 * The loops of a test body over an answer's list defaulted to empty (`res.json().balances ?? []`)
 * where nothing before the loop made sure the answer was a success: a 404's body has no list, and
 * the loop then judges nothing and passes.
 */
function loopsOverUnchecked(body: ts.Block): ts.ForOfStatement[] {
  const found: ts.ForOfStatement[] = [];
  const checkedBefore = (loop: ts.Node, name: string): boolean => {
    for (
      let child: ts.Node = loop, parent = loop.parent;
      child !== body.parent;
      child = parent, parent = parent.parent
    ) {
      if (!parent) break;
      if (ts.isBlock(parent) || ts.isSourceFile(parent)) {
        const before = parent.statements.slice(0, parent.statements.indexOf(child as ts.Statement));
        const names = new Set([name]);
        if (before.some((s) => calls(s, CHECKS_ANSWER, true) && reads(s, names))) return true;
        // Declared from requireSuccess(…): a success by construction.
        if (
          before.some(
            (s) =>
              ts.isVariableStatement(s) &&
              s.declarationList.declarations.some(
                (d) =>
                  ts.isIdentifier(d.name) &&
                  d.name.text === name &&
                  !!d.initializer &&
                  calls(d.initializer, ['requireSuccess']),
              ),
          )
        )
          return true;
      }
    }
    return false;
  };
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isForOfStatement(n)) {
      const defaulted = (e: ts.Node): ts.Expression | undefined => {
        if (
          ts.isBinaryExpression(e) &&
          (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
            e.operatorToken.kind === ts.SyntaxKind.BarBarToken) &&
          ts.isArrayLiteralExpression(e.right) &&
          e.right.elements.length === 0
        )
          return e.left;
        return ts.isParenthesizedExpression(e) ? defaulted(e.expression) : undefined;
      };
      const left = defaulted(n.expression);
      // The answer read: `<x>.json…` where x is a variable, or an awaited call read at once (never checked).
      let json: ts.Node | undefined;
      const find = (m: ts.Node) => {
        if (json) return;
        if (ts.isPropertyAccessExpression(m) && m.name.text === 'json') json = m.expression;
        else m.forEachChild(find);
      };
      if (left) find(left);
      if (json) {
        let inner: ts.Node = json;
        while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
        if (!ts.isIdentifier(inner) || !checkedBefore(n, inner.text)) found.push(n);
      }
    }
    n.forEachChild(visit);
  };
  body.forEachChild(visit);
  return found;
}

test('no loop over the list of an answer not made sure of: a failed answer judges nothing, never a pass', () => {
  const offences: string[] = [];
  for (const { file, source } of SPECS)
    for (const body of testBodies(source))
      for (const loop of loopsOverUnchecked(body)) {
        const { line } = source.getLineAndCharacterOfPosition(loop.getStart());
        offences.push(`${file}:${line + 1}: ${loop.getText().split('\n')[0].slice(0, 100)}`);
      }
  expect(
    offences,
    "require the answer's success first (requireSuccess(res, <the read's requirement>, step)), then loop; an empty list is notJudged",
  ).toEqual([]);
});

test('the loop lint sees a loop over a defaulted list of an unchecked answer, and lets a checked one pass', () => {
  const count = (text: string) =>
    loopsOverUnchecked(testBodies(ts.createSourceFile('x.spec.ts', text, ts.ScriptTarget.Latest, true))[0]).length;
  expect(
    count(
      `test('t', async () => { const r = await f(); for (const b of r.json().balances ?? []) expect(b).toBe(1); });`,
    ),
  ).toBe(1);
  expect(
    count(`test('t', async () => { for (const b of (await f()).json().balances ?? []) expect(b).toBe(1); });`),
  ).toBe(1);
  expect(
    count(
      `test('t', async () => { const r = await f(); await expect(r).toSucceed(); for (const b of r.json().x ?? []) expect(b).toBe(1); });`,
    ),
  ).toBe(0);
  expect(
    count(
      `test('t', async () => { const r = requireSuccess(await f(), 'a.b.c', 's'); for (const b of r.json().x ?? []) expect(b).toBe(1); });`,
    ),
  ).toBe(0);
  expect(count(`test('t', async () => { for (const b of list ?? []) expect(b).toBe(1); });`)).toBe(0);
});

/**
 * The `toSucceed()` assertions whose answer then feeds a later request (its value, or a variable
 * made from it, among an awaited call's arguments): a setup step, which blocks (requireSuccess,
 * prerequisite) when another requirement judges it, instead of failing this one by cascade.
 */
function succeedsThatFeed(body: ts.Block): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === 'toSucceed' &&
      !inPrerequisite(n)
    ) {
      const asserted = n.expression.expression;
      if (ts.isCallExpression(asserted) && asserted.arguments[0] && ts.isIdentifier(asserted.arguments[0])) {
        const names = new Set([asserted.arguments[0].text]);
        let feeds = false;
        const later = (m: ts.Node) => {
          if (feeds) return;
          if (m.getStart() > n.getEnd()) {
            if (ts.isVariableDeclaration(m) && m.initializer && ts.isIdentifier(m.name) && reads(m.initializer, names))
              names.add(m.name.text);
            if (
              ts.isAwaitExpression(m) &&
              ts.isCallExpression(m.expression) &&
              !calls(m.expression.expression, JUDGING) &&
              !/^(expect|because|requireSuccess|prerequisite)\b/.test(m.expression.expression.getText()) &&
              m.expression.arguments.some((a) => reads(a, names))
            )
              feeds = true;
          }
          m.forEachChild(later);
        };
        body.forEachChild(later);
        if (feeds) found.push(n);
      }
    }
    n.forEachChild(visit);
  };
  body.forEachChild(visit);
  return found;
}

/**
 * The tests whose `toSucceed()` on an answer that feeds the next request is their requirement's
 * own rule (the acceptance is what they judge), by file and test title: a new one is refused until
 * it blocks instead, or is listed here with why.
 */
const OWN_ACCEPTANCE: Record<string, string> = {
  'tests/consents/links.spec.ts › the links of a created consent': 'consents.create.response judges the create',
  'tests/signing-baskets/links.spec.ts › the links of a created basket':
    'signing-baskets.create.response judges the create',
  'tests/consents/read.spec.ts › validUntil 9999-12-31 asks for the maximum':
    'the maximum asked is accepted (its rule)',
  'tests/direct-debit/character-set.spec.ts › every text field of a direct debit accepts':
    'the character set accepted is its rule',
  'tests/direct-debit/flow.spec.ts': 'the creates of the flow are judged by it (their schema beside)',
  'tests/headers/common-rules.spec.ts › the directory operations answer without X-BicFi':
    'every directory call without X-BicFi is its rule',
  'tests/payments/cancellation.spec.ts':
    'the cancellation authorisation created is payments.cancel.authorisations’ rule',
  'tests/payments/initiation-rules.spec.ts': 'the creditorAddress accepted is its rule',
  'tests/payments/limits.spec.ts': 'a text at its maximum length, or of the character set, accepted is its rule',
};

/** The title of a `test(…)` call: its first argument's text. */
const titleOf = (n: ts.Node): string | undefined => {
  for (let p = n.parent; p; p = p.parent)
    if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && p.expression.text === 'test') {
      const t = p.arguments[0];
      return t && (ts.isStringLiteral(t) || ts.isNoSubstitutionTemplateLiteral(t) || ts.isTemplateExpression(t))
        ? t.getText().slice(1, -1)
        : undefined;
    }
  return undefined;
};

test("no inline toSucceed on a setup step: an answer that feeds the next request blocks when it fails, unless it is the test's own rule", () => {
  const offences: string[] = [];
  const listed = Object.keys(OWN_ACCEPTANCE);
  for (const { file, source } of SPECS)
    for (const body of testBodies(source))
      for (const call of succeedsThatFeed(body)) {
        const where = `${file} › ${titleOf(call) ?? ''}`;
        if (listed.some((k) => k === file || where.startsWith(k))) continue;
        const { line } = source.getLineAndCharacterOfPosition(call.getStart());
        offences.push(`${file}:${line + 1}: ${call.getText().slice(0, 100)}`);
      }
  expect(
    offences,
    "a step another requirement judges is required (requireSuccess(res, <its requirement>, step)); an acceptance that is the test's own rule is listed in OWN_ACCEPTANCE with why",
  ).toEqual([]);
});

test('the setup lint sees a toSucceed whose answer feeds the next request, and lets a judged answer or a prerequisite pass', () => {
  const count = (text: string) =>
    succeedsThatFeed(testBodies(ts.createSourceFile('x.spec.ts', text, ts.ScriptTarget.Latest, true))[0]).length;
  expect(
    count(
      `test('t', async () => { const r = await create(); await expect(r).toSucceed(); const id = r.json().id; await read(id); });`,
    ),
  ).toBe(1);
  expect(
    count(
      `test('t', async () => { const r = await create(); await expect(r).toSucceed(); expect(r.json().id).toBe(1); });`,
    ),
  ).toBe(0);
  expect(
    count(
      `test('t', async () => { const r = await create(); await prerequisite('a.b', 's', async () => expect(r).toSucceed()); await read(r.json().id); });`,
    ),
  ).toBe(0);
});
