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
    expect(read(), 'the shell and its first sleeper').toBe(rssOf(pid) + rssOf(first));
    shell.stdin!.end('go\n');
    await expect.poll(() => childrenOf(pid).length, { timeout: 5_000 }).toBe(2);
    const both = childrenOf(pid);
    expect(read(), 'the shell and both sleepers, the second started after the first sample').toBe(
      rssOf(pid) + both.reduce((sum, p) => sum + rssOf(p), 0),
    );
  } finally {
    for (const p of childrenOf(pid)) process.kill(p, 'SIGKILL');
    shell.kill('SIGKILL');
  }
});
