import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of a process and all its descendants, in bytes (Linux /proc; 0 elsewhere). */
export function treeRss(rootPid: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(pid), Number(fields[1]));
      rss.set(Number(pid), Number(fields[21]) * 4096);
    } catch {
      /* the process ended while we looked */
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (inTree(pid)) total += bytes;
  return total;
}

/** Samples the tree's memory until stopped; returns the peak. */
export function watchMemory(rootPid: number, everyMs = 250): { stop(): number } {
  let peak = treeRss(rootPid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRss(rootPid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
