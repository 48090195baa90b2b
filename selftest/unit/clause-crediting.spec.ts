import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { collapseWhitespace } from '../../harness/catalogue/catalogue.js';
import { mapSpecification, type SpecMap } from '../../harness/reporter/specification.js';

/*
 * The specification map credits a clause only to a requirement whose check reads it. What a check
 * reads is not machine-checkable in general; two checks hold what can be held:
 * - a clause that names identifiers in backticks (`XXX`, `aspsp-sca-approach`, `CORE`) is credited
 *   only to requirements whose test files, or the schemas those tests match, name one of them (a
 *   check that never mentions what the clause names is not reading it), but the exceptions below,
 *   each with the reason its check reads the clause all the same;
 * - the clauses once credited to requirements that did not judge them are credited as listed.
 */

/** "<clause text> <requirement id>": why the requirement reads the clause though its tests name none of its identifiers. */
const READS_WITHOUT_NAMING: Record<string, string> = {
  '| ASPSP detail | globalPaymentProducts | array of string | values seen: `domestic`, `international`, `swedish-giro` | directory.aspsp.detail-shape':
    'values seen are no rule: the check reads the type (array of string) through directory/aspsp-detail',
  '| creditorAddress | object | `street`, `buildingNumber`, `city`, `postalCode`, `country` | direct-debit.read-back.creditor-address':
    "the check compares the address read back with the one the harness's body sends (harness/areas/direct-debit.ts)",
  '| localInstrumentCode | string(enum) | only `CORE` is supported | direct-debit.create.local-instrument-core':
    "the check sends other codes than the harness body's CORE and judges their refusal",
  'response header `aspsp-sca-approach` is `DECOUPLED` or `REDIRECT` authorisations.start.any-method':
    "the generated check (harness/properties/authorisations.ts, startAccepted) reads the start's aspsp-sca-approach",
  'challengeData or the `scaOAuth` link is returned authorisations.start.any-method':
    'the generated check matches a DECOUPLED start against authorisations/authorisation-started (challengeData) and a REDIRECT one against authorisations/authorisation-started-redirect (_links.scaOAuth)',
  'Context scopes: `corporate`, `private`. oauth.token.scope-context':
    "the check reads the context word of the scope requested, the profile's psuContext",
};

function testSources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts')) out.set(path, readFileSync(path, 'utf8').replace(/\\/g, ''));
    }
  };
  walk(fromRoot('tests'));
  return out;
}

/** The words of the test files naming `id`, and of the schemas those files match. */
function readBy(id: string, sources: Map<string, string>): string {
  const files = [...sources.values()].filter((text) => text.includes(`'${id}'`));
  const schemas = files.flatMap((text) =>
    [...text.matchAll(/toMatchSchema\('([\w/-]+)'\)/g)].map((m) => {
      try {
        return readFileSync(fromRoot('schemas', `${m[1]}.ts`), 'utf8');
      } catch {
        return '';
      }
    }),
  );
  return [...files, ...schemas].join('\n');
}

/** Every (clause, requirement) credit whose clause names identifiers the requirement's tests never name. */
function unreadCredits(map: SpecMap): string[] {
  const sources = testSources();
  const out: string[] = [];
  for (const c of map.units.values()) {
    const names = [...c.clause.text.matchAll(/`([^`]+)`/g)]
      .map((m) => m[1])
      .filter((n) => /^[A-Za-z][\w-]{2,}$/.test(n));
    if (!names.length) continue;
    for (const r of c.requirements) {
      const words = readBy(r.id, sources);
      if (!names.some((n) => words.includes(n))) out.push(`${collapseWhitespace(c.clause.text)} ${r.id}`);
    }
  }
  return out;
}

test('a clause naming identifiers is credited only to requirements whose tests name one of them, or say why not', () => {
  const unread = unreadCredits(mapSpecification());
  expect(
    unread.filter((k) => !(k in READS_WITHOUT_NAMING)),
    'credits of clauses to requirements whose tests never name what the clause names: correct spec/clauses.yaml, or say why the check reads it in READS_WITHOUT_NAMING',
  ).toEqual([]);
  expect(
    Object.keys(READS_WITHOUT_NAMING).filter((k) => !unread.includes(k)),
    'READS_WITHOUT_NAMING entries that no longer name an unread credit',
  ).toEqual([]);
});

test('the clauses once credited to requirements that did not judge them are credited to those that read them', () => {
  const map = mapSpecification();
  const creditOf = (clause: string) =>
    [...map.units.values()]
      .filter((c) => collapseWhitespace(c.clause.text) === clause)
      .flatMap((c) => c.requirements.map((r) => r.id))
      .sort();
  const notJudged = (clause: string) =>
    [...map.units.values()].find((c) => collapseWhitespace(c.clause.text) === clause)?.notJudged?.reason;
  expect(creditOf('(`XXX` for a multicurrency account)')).toEqual(['accounts.account.multicurrency-xxx']);
  expect(creditOf('the bank debits on the execution date')).toEqual(['direct-debit.file.collection-date']);
  expect(creditOf('subject to mandate checks')).toEqual(['direct-debit.flow.section-h']);
  expect(creditOf('ID of an affiliated bank related to X-BicFi')).toEqual(['headers.affiliated-aspsp-id.accepted']);
  expect(creditOf('on create consent and initiate payment')).toEqual(['headers.affiliated-aspsp-id.accepted']);
  expect(creditOf('included if and only if the PSU actively initiated the request')).toEqual([
    'accounts.frequency.psu-present',
  ]);
  expect(
    creditOf('| Delete consent | DELETE base path/`<consentId>` | response uses the message-and-links structure |'),
  ).toEqual(['consents.delete.message-and-links']);
  expect(creditOf('response: transactionStatus and links')).toEqual([
    'payments.cancel.complete',
    'payments.cancel.status-and-links',
  ]);
  expect(creditOf('to `/iso/payments/confirm`, `self` to `/iso/payments/<paymentId>`).')).toEqual([
    'direct-debit.create.links',
  ]);
  // The paths themselves: explained, naming the requirement that judges the bank's links to them.
  expect(notJudged('**Confirm payment**: PUT `{base_url}/iso/payments/confirm`.')).toBe('judged-elsewhere');
  expect(notJudged('**Get payment**: GET `{base_url}/iso/payments/<paymentId>`.')).toBe('judged-elsewhere');
});
