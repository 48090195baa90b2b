import { procPids, procStat } from '../../scripts/proc.mjs';

/** A process's parent pid and resident memory in bytes (Linux /proc), or undefined once it is gone. */
function statOf(pid: number): { parent: number; rss: number } | undefined {
  const fields = procStat(pid);
  return fields && { parent: Number(fields[1]), rss: Number(fields[21]) * 4096 };
}

/**
 * Resident memory of a process and all its descendants, in bytes (Linux /proc; 0 elsewhere), as a
 * reader kept across samples. A sample lists /proc and reads the stat of the tree's processes and
 * of processes it has not seen before only: the machine's other processes (a hundred or more
 * while the self-tests run, sampled four times a second by every child run) are read once.
 */
export function treeRssReader(rootPid: number): () => number {
  /** Parent of every process seen, by pid. */
  const parents = new Map<number, number>();
  return () => {
    const pids = procPids();
    if (!pids.length) return 0;
    const alive = new Set(pids);
    for (const pid of parents.keys()) if (!alive.has(pid)) parents.delete(pid);
    const rss = new Map<number, number>();
    for (const pid of pids) {
      if (parents.has(pid)) continue;
      const s = statOf(pid);
      if (!s) continue;
      parents.set(pid, s.parent);
      rss.set(pid, s.rss);
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; p = parents.get(p) ?? 0, hops++) if (p === rootPid) return true;
      return false;
    };
    let total = 0;
    for (const pid of parents.keys()) {
      if (!inTree(pid)) continue;
      // Read just now when first seen; the tree's processes are read again at every sample.
      const bytes = rss.get(pid) ?? statOf(pid)?.rss ?? 0;
      total += bytes;
    }
    return total;
  };
}

/** Samples the tree's memory until stopped; returns the peak. */
export function watchMemory(rootPid: number, everyMs = 250): { stop(): number } {
  const read = treeRssReader(rootPid);
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
