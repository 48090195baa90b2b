import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
const root = '/work/wt/i47';
const specsUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specsUnder(join(dir, e.name)) : e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
function testBodies(source: ts.SourceFile): ts.Block[] {
  const bodies: ts.Block[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'test') {
      const last = n.arguments[n.arguments.length - 1];
      if (last && (ts.isArrowFunction(last) || ts.isFunctionExpression(last)) && ts.isBlock(last.body)) bodies.push(last.body);
    }
    n.forEachChild(visit);
  };
  visit(source);
  return bodies;
}
/** Whether `n` reads one of `names` as a value (a property name is no read). */
const reads = (n: ts.Node, names: Set<string>): boolean => {
  let found = false;
  const visit = (m: ts.Node) => {
    if (found) return;
    if (ts.isIdentifier(m) && names.has(m.text) && !(ts.isPropertyAccessExpression(m.parent) && m.parent.name === m) && !(ts.isPropertyAssignment(m.parent) && m.parent.name === m)) found = true;
    else m.forEachChild(visit);
  };
  visit(n);
  return found;
};
const inPrerequisite = (n: ts.Node): boolean => {
  for (let p = n.parent; p; p = p.parent)
    if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && p.expression.text === 'prerequisite') return true;
  return false;
};
const ASSERTING = /^(expect|because|requireSuccess|prerequisite|notJudged|block)\b/;
export function setupSucceeds(body: ts.Block): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'toSucceed' && !inPrerequisite(n)) {
      const e = n.expression.expression;
      if (ts.isCallExpression(e) && e.arguments[0] && ts.isIdentifier(e.arguments[0])) {
        const names = new Set([e.arguments[0].text]);
        let fed = false;
        const later = (m: ts.Node) => {
          if (fed) return;
          if (m.getStart() > n.getEnd()) {
            if (ts.isVariableDeclaration(m) && m.initializer && ts.isIdentifier(m.name) && reads(m.initializer, names)) names.add(m.name.text);
            if (ts.isAwaitExpression(m) && ts.isCallExpression(m.expression) && !ASSERTING.test(m.expression.expression.getText()) && m.expression.arguments.some((a) => reads(a, names))) fed = true;
          }
          m.forEachChild(later);
        };
        body.forEachChild(later);
        if (fed) found.push(n);
      }
    }
    n.forEachChild(visit);
  };
  body.forEachChild(visit);
  return found;
}
let count = 0;
for (const file of specsUnder(join(root, 'tests'))) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const body of testBodies(src)) for (const n of setupSucceeds(body)) { count++; const { line } = src.getLineAndCharacterOfPosition(n.getStart()); console.log(`${relative(root, file)}:${line + 1}`); }
}
console.log(count);
