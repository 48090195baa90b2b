import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';

const json = (file: string) => JSON.parse(readFileSync(fromRoot(file), 'utf8'));

/**
 * package.json's `engines` says what is true: the Node running these tests, and each Node build the
 * self-tests' runtimes slice runs them on (selftest/runtimes/), is one it admits; under that slice
 * (SELFTEST_NODE_MAJOR), the tests run on the Node it asked for.
 */
test('the Node running the tests and every Node of the runtimes slice are ones package.json engines admits', () => {
  const engines: string = json('package.json').engines.node;
  const min = /^>=(\d+)$/.exec(engines);
  expect(min, `package.json engines.node is "${engines}", not ">=<major>"`).not.toBeNull();
  const major = Number(process.versions.node.split('.')[0]);
  expect(major, `Node ${process.version}; engines.node "${engines}"`).toBeGreaterThanOrEqual(Number(min![1]));
  const runtimes: Record<string, string> = json('selftest/runtimes/package.json').optionalDependencies;
  for (const [name, spec] of Object.entries(runtimes)) {
    const version = /@(\d+)\.\d+\.\d+$/.exec(spec);
    expect(version, `selftest/runtimes ${name}: "${spec}" pins no exact version`).not.toBeNull();
    expect(Number(version![1]), `selftest/runtimes ${name} (${spec})`).toBeGreaterThanOrEqual(Number(min![1]));
  }
  const asked = process.env.SELFTEST_NODE_MAJOR;
  if (asked) expect(major, `the runtimes slice asked for Node ${asked}`).toBe(Number(asked));
});
