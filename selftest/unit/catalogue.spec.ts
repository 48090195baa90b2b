import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue, NOT_JUDGED_FILE, statesRule } from '../../harness/catalogue/catalogue.js';
import {
  codePins,
  equalityPins,
  literalPins,
  minItemsPins,
  nonEmptyPins,
  onlyShown,
  pinFindings,
  presencePins,
  requiredPins,
  windowPins,
} from '../../harness/catalogue/pins.js';
import { fromRoot } from '../../harness/config/paths.js';
import { featuresOfOptions, loadProfile } from '../../harness/config/profile.js';
import { renderMarkdown } from '../../harness/reporter/markdown.js';
import { totalsOf } from '../../harness/reporter/verdicts.js';
import { VARIANTS } from '../../sandbox/variants/index.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { listSuite } from '../proof/plan.js';

/**
 * Every requirement id the collected tests name, from `playwright test --list` of the suite
 * (listSuite, made once per self-test run): the annotations req() adds, so ids built from data
 * (one test per field) count as well as literal ones.
 */
function namedIds(): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const [file, tests] of listSuite())
    for (const id of tests.flat()) named.set(id, [...new Set([...(named.get(id) ?? []), file])]);
  return named;
}

let cached: Map<string, string[]> | undefined;
const named = () => (cached ??= namedIds());

test('every catalogue file is valid and no id is declared twice', () => {
  const c = loadCatalogue();
  expect(c.problems).toEqual([]);
  expect(c.all.length).toBeGreaterThan(20);
});

test('every requirement id a test names exists in the catalogue', () => {
  const c = loadCatalogue();
  const unknown = [...named().entries()]
    .filter(([id]) => !c.byId.has(id))
    .map(([id, files]) => `${id} (${files.join(', ')})`);
  expect(unknown).toEqual([]);
});

test('every MUST requirement has a test', () => {
  const untested = loadCatalogue()
    .all.filter((r) => r.level === 'MUST' && !named().has(r.id))
    .map((r) => `${r.area}: ${r.id}`);
  expect(untested).toEqual([]);
});

test('every feature a requirement needs is claimed by the reference profile, or by a case of the other reading', () => {
  // A feature that only the other reading of a profile option brings (OPTION_FEATURES:
  // tokens.psu-reads, signing.mandated, ...) is claimed by the variant or the fault whose claims
  // set that option, so its requirement is judged in the self-proof.
  const claimable = new Set([
    ...loadProfile('reference').features,
    ...[...VARIANTS, ...FAULTS].flatMap((v) => [
      ...((v.claims?.features as string[] | undefined) ?? []),
      ...featuresOfOptions(v.claims ?? {}),
    ]),
  ]);
  const missing = [...new Set(loadCatalogue().all.flatMap((r) => r.features))].filter((f) => !claimable.has(f));
  expect(missing, 'features of the catalogue that neither the reference profile nor a variant claims').toEqual([]);
});

test('each area has a requirements file, a test folder and a Playwright project', async () => {
  const { AREAS } = await import('../../playwright.config.js');
  const files = readdirSync(fromRoot('requirements'))
    .filter((f) => f.endsWith('.yaml') && f !== NOT_JUDGED_FILE)
    .map((f) => f.replace('.yaml', ''));
  for (const f of files) expect(AREAS as readonly string[]).toContain(f);
});

test('every requirement quotes its sentence, and every MUST quotes the specification', () => {
  const c = loadCatalogue();
  expect(c.all.filter((r) => !r.quote || !r.quoteFrom).map((r) => r.id)).toEqual([]);
  expect(c.all.filter((r) => r.level === 'MUST' && r.quoteFrom !== 'spec').map((r) => r.id)).toEqual([]);
});

/** Loads a catalogue directory holding one file, fixture.yaml, with the given YAML. */
function lintOf(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'obg-catalogue-'));
  try {
    writeFileSync(join(dir, 'fixture.yaml'), yaml);
    return loadCatalogue(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const entry = (id: string, level: string, quote?: string, quoteFrom?: string, extra = '') =>
  [
    `- id: ${id}`,
    `  level: ${level}`,
    '  section: "Fixture"',
    '  features: [directory]',
    '  text: A fixture requirement of the catalogue lint.',
    extra,
    quote === undefined ? '' : `  quote: ${JSON.stringify(quote)}`,
    quoteFrom === undefined ? '' : `  quoteFrom: ${quoteFrom}`,
  ]
    .filter((l) => l !== '')
    .join('\n');

test('the lint accepts a MUST quoting a rule of the specification, and a SHOULD quoting the reference facts', () => {
  const c = lintOf(
    [
      entry('fixture.a.must', 'MUST', '| X-Request-ID | string(uuid) |   required on every operation;', 'spec'),
      entry(
        'fixture.a.should',
        'SHOULD',
        "Every response carries `X-Request-ID`, echoing the request's.",
        'reference-facts',
      ),
    ].join('\n'),
  );
  expect(c.problems).toEqual([]);
  expect(c.all.map((r) => r.quote?.length)).toEqual([expect.any(Number), expect.any(Number)]);
});

test('the lint reports a quote that is not verbatim in its file, naming the id and the file', () => {
  const c = lintOf(
    [
      // "non-empty" is the specification's word; a paraphrase is not a quote.
      entry('fixture.b.paraphrase', 'MUST', '| paymentIds | array of string | must not be empty |', 'spec'),
      // verbatim in the specification, but said to come from the reference facts.
      entry(
        'fixture.b.wrong-file',
        'SHOULD',
        'Field, header and parameter names are case-sensitive.',
        'reference-facts',
      ),
      // case counts: only whitespace is collapsed.
      entry('fixture.b.case', 'SHOULD', 'field, header and parameter names are case-sensitive.', 'spec'),
    ].join('\n'),
  );
  expect(c.problems).toHaveLength(3);
  expect(c.problems[0]).toContain('fixture.yaml: fixture.b.paraphrase');
  expect(c.problems[0]).toContain('not in spec/open-banking-gateway-api.md verbatim');
  expect(c.problems[1]).toContain('fixture.yaml: fixture.b.wrong-file');
  expect(c.problems[1]).toContain('not in spec/reference-facts.md verbatim');
  expect(c.problems[2]).toContain('fixture.yaml: fixture.b.case');
  // The entries still load: a lint problem does not hide a requirement from the suite.
  expect(c.all).toHaveLength(3);
});

test('the lint reports a MUST whose quote comes only from the reference facts', () => {
  const c = lintOf(
    entry('fixture.c.must', 'MUST', '| 404 | RESOURCE_UNKNOWN; PIS also PRODUCT_UNKNOWN |', 'reference-facts'),
  );
  expect(c.problems).toEqual([
    expect.stringMatching(/^fixture\.yaml: fixture\.c\.must is a MUST but quotes only spec\/reference-facts\.md/),
  ]);
});

test('the lint reports an entry with no quote, or a quote with no file', () => {
  const c = lintOf(
    [
      entry('fixture.d.none', 'SHOULD'),
      entry('fixture.d.no-file', 'SHOULD', 'Field, header and parameter names are case-sensitive.'),
    ].join('\n'),
  );
  expect(c.problems).toEqual([
    expect.stringMatching(/^fixture\.yaml: fixture\.d\.none has no quote/),
    expect.stringMatching(/^fixture\.yaml: fixture\.d\.no-file has a quote but no quoteFrom/),
  ]);
});

test('the lint reports a MUST whose quote states no rule, and a MUST resting on a source other than the specification', () => {
  const c = lintOf(
    [
      entry('fixture.e.silent', 'MUST', 'Which SEPA direct debit fields are required: not shown.', 'spec'),
      entry('fixture.e.permissive', 'MUST', 'Future dates may be adjusted by the bank.', 'spec'),
      entry('fixture.e.issue', 'MUST', '| code | string | code received on the redirect |', 'spec', '  source: issue'),
    ].join('\n'),
  );
  expect(c.problems).toEqual([
    expect.stringMatching(/^fixture\.yaml: fixture\.e\.silent is a MUST but its quote states no rule/),
    expect.stringMatching(/^fixture\.yaml: fixture\.e\.permissive is a MUST but its quote states no rule/),
    expect.stringMatching(/^fixture\.yaml: fixture\.e\.issue is a MUST whose rule comes from issue/),
  ]);
});

test('statesRule: which quotes of the specification state a rule a MUST can rest on', () => {
  const spec = readFileSync(fromRoot('spec', 'open-banking-gateway-api.md'), 'utf8');
  const rule = (quote: string, from: 'spec' | 'reference-facts' = 'spec') => statesRule(quote, from, spec);
  expect(rule('All GET. `Consent-ID` is required.')).toBe('must or required');
  expect(
    rule('| recurringIndicator | boolean | yes | true for recurring access, false for one access |'),
  ).toBeDefined();
  expect(rule('| endToEndIdentification | payment | at most 35 characters |')).toBe('a number or limit');
  expect(
    rule(
      '| Direct debit country and currency | direct debit | EUR collections from bank accounts in the Netherlands |',
    ),
  ).toBe('a row of the Limits table');
  expect(rule('| started | PSU completes authentication | success | finalised | |')).toBe('a state or state move');
  expect(rule('A redirect URI outside the whitelist is not accepted.')).toBe('a stated restriction');
  // Descriptions, permissions and silences state nothing; the reference facts never carry a MUST.
  expect(rule('The service is an open-banking gateway.')).toBeUndefined();
  expect(rule('Future dates may be adjusted by the bank.')).toBeUndefined();
  expect(rule('Further consent statuses and the move from received to valid: not shown.')).toBeUndefined();
  expect(rule('| 429 | ACCESS_EXCEEDED (AIS: frequencyPerDay used up) |', 'reference-facts')).toBeUndefined();
});

test('the report shows the quote under a requirement that did not pass, with its file', () => {
  const quote = '| paymentIds | array of string | non-empty; in the create body and the read response |';
  const md = renderMarkdown({
    suite: { name: 'obg-conformance', version: '0', commit: '0'.repeat(40), specSha256: '0'.repeat(64) },
    target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    verdict: 'not-conformant',
    totals: { ...totalsOf([]), passed: 1, failed: 1 },
    requirements: [
      {
        id: 'signing-baskets.create.empty',
        level: 'MUST',
        area: 'signing-baskets',
        section: 'Resources and their fields > Signing basket',
        text: 'A basket with an empty paymentIds, or none, is rejected with 400.',
        quote,
        quoteFrom: 'spec',
        verdict: 'failed',
        tests: [{ title: 'an empty basket', file: 'tests/x.spec.ts', status: 'failed', message: 'status 201' }],
      },
      {
        id: 'signing-baskets.read.response',
        level: 'MUST',
        area: 'signing-baskets',
        section: 'Endpoints > E',
        text: 'Reading a basket answers its paymentIds.',
        quote: 'A quote of a passed requirement is not shown.',
        quoteFrom: 'spec',
        verdict: 'passed',
        tests: [{ title: 'read', file: 'tests/x.spec.ts', status: 'passed', message: '' }],
      },
    ],
  });
  expect(md).toContain(`It rests on \`spec/open-banking-gateway-api.md\`:\n\n> ${quote}\n`);
  expect(md).not.toContain('A quote of a passed requirement');
});

test('the pin lint: no MUST test pins a whole response object, a value only shown, a status code, a time window, a minimum count or a listed field, unless its entry names what fixes it (pins)', () => {
  const findings = pinFindings(loadCatalogue()).map((f) => `${f.id}: ${f.kind} in ${f.file}: ${f.detail}`);
  expect(findings).toEqual([]);
});

test('the pin lint reports toEqual on a response body or an object taken whole from one, not on derived values', () => {
  // The forms the directory, transaction and account checks had before they compared named fields.
  expect(
    equalityPins(`
      const res = await directory.city(city.cityId);
      expect(res.json(), because('x')).toEqual(city);`),
  ).toHaveLength(1);
  expect(
    equalityPins(`
      const { _links: _a, ...detail } = res.json<{ transactionsDetails: T }>().transactionsDetails;
      expect(detail, because('x')).toEqual(listed);`),
  ).toHaveLength(1);
  expect(
    equalityPins(`
      const body = res.json<{ a: string }>();
      expect.soft(other).toStrictEqual(body);`),
  ).toHaveLength(1);
  // Derived values: key lists, sorted ids, a disagreement list, asymmetric matchers.
  expect(
    equalityPins(`
      expect(ids(res.json().cities), because('x')).toEqual(ids(chosen));
      expect(disagreements(res.json(), city, FIELDS)).toEqual([]);
      expect(res.json().consentId).toEqual(expect.any(String));
      expect(again).toEqual([...ids].sort());`),
  ).toEqual([]);
});

test('the pin lint takes a value as only shown when the specification names it only where values are seen', () => {
  const spec = [
    'Values seen: `received`, `valid`.',
    '| none | create consent | request accepted | received | consentId returned |',
    '| otpFormat | value seen: `characters` |',
  ].join('\n');
  expect(onlyShown('received', spec)).toBe(false);
  expect(onlyShown('characters', spec)).toBe(true);
  expect(onlyShown('terminatedByTpp', spec)).toBe(true);
});

// The forms the stricter-than-the-words checks had, each caught by its kind of pin.
const PIN_SPEC = [
  '| Transaction list response | `transactions` (object with `booked` array, `pending` array) |',
  'Values seen: `received`, `valid`, `expired`.',
  '| none | create consent | request accepted | received | consentId returned |',
  '| paymentIds | array of string | non-empty; in the create body and the read response |',
  '| creditorName | string | yes | at most 70 characters |',
].join('\n');

test('the pin lint reports a literal toBe on a value the specification only shows, not on one it states or a negation', () => {
  expect(literalPins(`expect(read.body.transactionStatus, because('x')).toBe('CANC');`, PIN_SPEC)).toHaveLength(1);
  expect(literalPins(`expect(status).toBe('expired');`, PIN_SPEC)).toHaveLength(1);
  expect(
    literalPins(`expect(status).toBe('received'); expect(after).not.toBe('CANC'); expect(x).toBe(before);`, PIN_SPEC),
  ).toEqual([]);
});

test('the pin lint reports a literal status code or list of codes, not the class or a code from data', () => {
  expect(codePins(`await expect.soft(res, 'x').toHaveStatus([400, 404, 422]);`)).toHaveLength(1);
  expect(codePins(`if (first.status === 400) return; await expect(res).toBeRefused(400);`)).toHaveLength(1);
  expect(codePins(`await expect(res).toBeTppError(401, 'TOKEN_INVALID');`)).toHaveLength(1);
  expect(
    codePins(
      `await expect(res).toBeRefused(); await expect(res).toBeRefused(status); await expect(res).toBeTppError(res.status);`,
    ),
  ).toEqual([]);
});

test('the pin lint reports a literal deadline on a value polled for, not a wait from the profile or an observation window', () => {
  expect(
    windowPins(`await expect
        .poll(() => statusOf(consents, former), { message: 'x', intervals: [500], timeout: 5000 })
        .toBe('expired');`),
  ).toHaveLength(1);
  expect(
    windowPins(`await expect.poll(() => statusOf(consents, former), { timeout: target.timeouts.scaMs }).toBe('expired');
      await expect.poll(async () => seen.length, { intervals: [500], timeout: 10_000 }).toBeGreaterThanOrEqual(4);`),
  ).toEqual([]);
});

test('the pin lint reports a minItems on a field the specification never calls non-empty', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pins-'));
  try {
    mkdirSync(join(dir, 'accounts'));
    writeFileSync(
      join(dir, 'accounts', 'balances.ts'),
      `export const s = { properties: { balances: { type: 'array', minItems: 1, items: { $ref: 'balance.json' } } } } as const;`,
    );
    writeFileSync(
      join(dir, 'accounts', 'basket.ts'),
      `export const s = { properties: { paymentIds: { type: 'array', minItems: 1 } } } as const;`,
    );
    const stretch = (name: string) => `await expect(res).toMatchSchema('accounts/${name}');`;
    expect(minItemsPins(stretch('balances'), dir, dir, PIN_SPEC).map((f) => f.detail)).toEqual([
      'accounts/balances: balances minItems 1',
    ]);
    expect(minItemsPins(stretch('basket'), dir, dir, PIN_SPEC)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the pin lint reports a listed field asserted present, not a field the specification requires', () => {
  expect(
    presencePins(
      `expect(
        Array.isArray(all.transactions.booked) && Array.isArray(all.transactions.pending),
        because('bookingStatus=both must give a booked and a pending array'),
      ).toBe(true);`,
      PIN_SPEC,
    ),
  ).toEqual(['booked asserted present', 'pending asserted present']);
  expect(presencePins(`expect(body).toHaveProperty('transactions');`, PIN_SPEC)).toHaveLength(1);
  expect(
    presencePins(`expect(body.creditorName).toBeDefined(); expect(body).toHaveProperty('paymentIds');`, PIN_SPEC),
  ).toEqual([]);
});

test('the pin lint reports a list asserted non-empty, not one the specification calls non-empty nor a count of the test', () => {
  expect(nonEmptyPins(`expect(res.json().aspsps.length, because('x')).toBeGreaterThan(0);`, PIN_SPEC)).toEqual([
    'aspsps asserted non-empty',
  ]);
  expect(nonEmptyPins(`expect(body.transactions.booked).not.toHaveLength(0);`, PIN_SPEC)).toHaveLength(1);
  expect(nonEmptyPins(`expect(Array.isArray(a.pending) && a.pending.length > 0).toBe(true);`, PIN_SPEC)).toHaveLength(
    1,
  );
  expect(
    nonEmptyPins(`expect(read.paymentIds.length).toBeGreaterThan(0); expect(started).toBeGreaterThan(0);`, PIN_SPEC),
  ).toEqual([]);
});

test("the pin lint reports a schema's required on a field the specification only lists, not on one it requires", () => {
  const dir = mkdtempSync(join(tmpdir(), 'pins-'));
  try {
    mkdirSync(join(dir, 'accounts'));
    writeFileSync(
      join(dir, 'accounts', 'list.ts'),
      `export const s = { required: ['booked', 'creditorName'] } as const;`,
    );
    const stretch = `await expect(res).toMatchSchema('accounts/list');`;
    // booked: only in a row listing fields; creditorName: "| yes |".
    expect(requiredPins(stretch, dir, dir, PIN_SPEC).map((f) => f.detail)).toEqual(['accounts/list: booked required']);
    const spec = [PIN_SPEC, '| booked | array | yes | the booked entries |'].join('\n');
    expect(requiredPins(stretch, dir, dir, spec)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
