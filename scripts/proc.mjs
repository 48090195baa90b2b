// @ts-check
// Linux /proc, read by the self-tests' runner (scripts/selftest.mjs) and their child runs
// (selftest/support/): process trees and CPU times. Elsewhere every reading is empty.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat after the command's name (which may hold spaces and parentheses):
 * [0] the state, [1] the parent pid, [13] and [14] the reaped children's user and system time in
 * clock ticks, [21] the resident pages. Undefined when the process is gone or there is no /proc.
 * @param {number | 'self'} pid
 * @returns {string[] | undefined}
 */
export function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The pids /proc lists now (empty without /proc). */
export function procPids() {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** User and system CPU seconds of this process's reaped children (cutime, cstime; 100 ticks a second). */
export function reapedChildrenCpu() {
  const f = procStat('self');
  return f ? { user: Number(f[13]) / 100, system: Number(f[14]) / 100 } : { user: 0, system: 0 };
}
