/** The fields of /proc/<pid>/stat after the command's name, or undefined when the process is gone. */
export function procStat(pid: number | 'self'): string[] | undefined;
/** The pids /proc lists now (empty without /proc). */
export function procPids(): number[];
/** User and system CPU seconds of this process's reaped children. */
export function reapedChildrenCpu(): { user: number; system: number };
