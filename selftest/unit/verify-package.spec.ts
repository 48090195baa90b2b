import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { CompactSign } from 'jose';
import * as tar from 'tar';
import { MANIFEST, PUBLIC_KEY, SIGNATURE, verifyPackage } from '../../harness/reporter/package.js';

/**
 * verify reads a package file's entries in memory (harness/reporter/package.ts): it must judge a
 * package file as it judges the same files unpacked, name an entry that is no regular file, and
 * say what is wrong with a file that is no package or a key that is no key, instead of failing
 * with a stack. The certify self-test (selftest/green/certify.spec.ts) judges a real package.
 */
let work: string;
test.beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'obg-verify-unit-'));
});
test.afterEach(() => rmSync(work, { recursive: true, force: true }));

const write = (file: string, data: string | Uint8Array) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
};

/** A package whose signed manifest lists no file: its one evidence file and its key are not covered. */
async function folder(): Promise<string> {
  const dir = join(work, 'pkg');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const manifest = JSON.stringify({ files: [] });
  write(join(dir, MANIFEST), manifest);
  write(join(dir, PUBLIC_KEY), publicKey.export({ type: 'spki', format: 'pem' }));
  write(
    join(dir, SIGNATURE),
    await new CompactSign(new TextEncoder().encode(manifest)).setProtectedHeader({ alg: 'ES256' }).sign(privateKey),
  );
  write(join(dir, 'evidence', 'one.txt'), 'an exchange');
  return dir;
}

test('a package file is judged as the same files unpacked, its entries named without "./"', async () => {
  const dir = await folder();
  const file = join(work, 'pkg.tar.gz');
  // Packed as `tar -C dir -czf file .` does: every entry under "./".
  await tar.create({ gzip: true, file, cwd: dir }, ['.']);
  const unpacked = await verifyPackage(dir);
  expect(unpacked.problems).toEqual([
    'evidence/one.txt: added (not in the manifest)',
    `${PUBLIC_KEY}: added (not in the manifest)`,
    `${PUBLIC_KEY} is not covered by the manifest`,
  ]);
  expect((await verifyPackage(file)).problems).toEqual(unpacked.problems);
});

test('an entry that is not a regular file is named', async () => {
  const dir = await folder();
  symlinkSync('one.txt', join(dir, 'evidence', 'link'));
  const file = join(work, 'pkg.tar.gz');
  await tar.create({ gzip: true, file, cwd: dir, portable: true }, ['.']);
  expect((await verifyPackage(file)).problems).toContain('evidence/link: not a regular file');
});

test('a file that is no package, or a package whose key is no key, says what is wrong', async () => {
  const garbage = join(work, 'garbage.tar.gz');
  writeFileSync(garbage, 'this is no tar file');
  expect((await verifyPackage(garbage)).problems).toEqual([
    `${garbage}: not a readable package (no entry could be read: not a tar file)`,
  ]);
  const dir = await folder();
  writeFileSync(join(dir, PUBLIC_KEY), 'not a key');
  const v = await verifyPackage(dir);
  expect(v.ok).toBe(false);
  expect(v.problems).toEqual([expect.stringMatching(new RegExp(`^${PUBLIC_KEY} is not a public key: `))]);
});
