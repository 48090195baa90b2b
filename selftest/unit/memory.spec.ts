import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { treeRssReader } from '../support/memory.js';

/** Fields of /proc/<pid>/stat after the command's name: [1] the parent pid, [21] the resident pages. */
const statFields = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
const rssOf = (pid: number) => Number(statFields(pid)[21]) * 4096;
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((p) => {
      try {
        return Number(statFields(p)[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    });

test('the memory of a run counts its process and every process below it, those started after the first sample too', async () => {
  test.skip(process.platform !== 'linux', 'reads /proc');
  // A shell that starts one sleeper at once, and a second one once a line comes in.
  const shell = spawn('sh', ['-c', 'sleep 9 & read go; sleep 9 & wait'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const pid = shell.pid!;
  try {
    const read = treeRssReader(pid);
    await expect.poll(() => childrenOf(pid).length).toBe(1);
    const [first] = childrenOf(pid);
    // The reader and the test read /proc a moment apart: a sleeper just forked may be exec'ing
    // between the two reads (its resident memory changing), so the two are compared until they
    // agree, each time read one right after the other.
    const gap = (pids: number[]) => () => read() - pids.reduce((sum, p) => sum + rssOf(p), 0);
    await expect.poll(gap([pid, first]), { message: 'the shell and its first sleeper (bytes not counted)' }).toBe(0);
    shell.stdin!.end('go\n');
    await expect.poll(() => childrenOf(pid).length, { timeout: 5_000 }).toBe(2);
    const both = childrenOf(pid);
    await expect
      .poll(gap([pid, ...both]), {
        message: 'the shell and both sleepers, the second started after the first sample (bytes not counted)',
      })
      .toBe(0);
  } finally {
    for (const p of childrenOf(pid)) process.kill(p, 'SIGKILL');
    shell.kill('SIGKILL');
  }
});
