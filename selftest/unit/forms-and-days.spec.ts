import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { isGeoLocation, isIpv4, isUuid } from '../../spec/header-forms.js';
import { isoDay, today } from '../../spec/iso8601.js';

// The header forms (uuid, IPv4, geo location) are written once, in spec/header-forms.ts beside the
// IBAN judge, and read by the harness, the guard, the faults and the variants alike; the day of a
// moment (YYYY-MM-DD, UTC) once, in spec/iso8601.ts, for the suite and the sandbox alike.

test('the forms: a uuid, an IPv4 address, a geo location of six decimals', () => {
  expect(isUuid('6f1e0f1c-0d2e-4c0b-9d1e-6f1e0f1c0d2e')).toBe(true);
  for (const v of ['6f1e0f1c0d2e4c0b9d1e6f1e0f1c0d2e', '{6f1e0f1c-0d2e-4c0b-9d1e-6f1e0f1c0d2e}', undefined])
    expect(isUuid(v), String(v)).toBe(false);
  expect(isIpv4('192.0.2.1')).toBe(true);
  for (const v of ['256.0.0.1', '01.2.3.4', '1.2.3', '::1', ['192.0.2.1']]) expect(isIpv4(v), String(v)).toBe(false);
  expect(isGeoLocation('GEO:-33.868820;-151.209296')).toBe(true);
  for (const v of ['GEO:59.33;18.07', '59.329323;18.068581', 'GEO:59.329323,18.068581'])
    expect(isGeoLocation(v), v).toBe(false);
});

/** The source modules of the suite, the sandbox, the commands and the shared data, from the root. */
function sources(): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? files(p) : /\.(ts|mjs)$/.test(e) ? [p] : [];
    });
  const scanned = ['harness', 'sandbox', 'tests', 'scripts', 'spec']
    .flatMap((d) => files(fromRoot(d)))
    .map((p) => relative(fromRoot(), p));
  expect(scanned.length, 'the modules read').toBeGreaterThan(300);
  return scanned;
}

test('no module but spec/header-forms.ts restates the uuid, IPv4 or geo location form', () => {
  const restated = [
    /\/\^\[0-9a-f\]\{8\}-/i, // an anchored uuid
    /\bisIPv4\b/, // node:net's judge beside ours
    /\/\^GEO:-\?/, // the geo location form
    /25\[0-5\]/, // an octet
  ];
  const scanned = sources();
  expect(scanned, 'the forms themselves are read').toContain(join('spec', 'header-forms.ts'));
  const found = scanned
    .filter((p) => p !== join('spec', 'header-forms.ts'))
    .filter((p) => restated.some((r) => r.test(readFileSync(fromRoot(p), 'utf8'))));
  expect(found, 'modules with a form of their own (import it from spec/header-forms.ts)').toEqual([]);
});

test("one day helper: a moment's ISO date, UTC", () => {
  expect(isoDay(Date.UTC(2026, 0, 31, 23, 59))).toBe('2026-01-31');
  expect(isoDay(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01');
  expect(today()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test('no module but spec/iso8601.ts cuts a day out of toISOString', () => {
  const scanned = sources();
  expect(scanned, 'the helper itself is read').toContain(join('spec', 'iso8601.ts'));
  const found = scanned
    .filter((p) => p !== join('spec', 'iso8601.ts'))
    .filter((p) => /toISOString\(\)\.slice\(0, ?10\)/.test(readFileSync(fromRoot(p), 'utf8')));
  expect(found, 'modules with a day helper of their own (import isoDay or today from spec/iso8601.ts)').toEqual([]);
});
