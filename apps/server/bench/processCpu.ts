// The CPU time of a process and every process below it (Linux's /proc): a server of several workers (the
// primary's children) or a PostgreSQL cluster (the postmaster's backends), whose own /proc/PID/stat counts
// none of its children's time while they run.
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/PID/stat's times (Linux's USER_HZ, 100 on every common platform). */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  parent: number;
  /** User plus system CPU time, in µs. */
  cpu: number;
}

async function processStats(): Promise<ProcessStat[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const stats = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const text = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
        if (text === undefined) return undefined;
        // After the command name (in parentheses, which may hold spaces): state, ppid, ... utime (14), stime (15).
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        const cpu = ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
        return { pid: Number(name), parent: Number(fields[1]), cpu };
      }),
  );
  return stats.filter((stat): stat is ProcessStat => stat !== undefined);
}

/**
 * The CPU time of each process of the tree under `root` (itself included), by PID, in µs. Compare two
 * readings PID by PID: a process that ended between them is missing from the second.
 */
export async function treeCpu(root: number): Promise<Map<number, number>> {
  const stats = await processStats();
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const tree = new Map<number, number>();
  const visit = (pid: number, cpu: number) => {
    tree.set(pid, cpu);
    for (const child of children.get(pid) ?? []) visit(child.pid, child.cpu);
  };
  const top = stats.find((stat) => stat.pid === root);
  if (top) visit(top.pid, top.cpu);
  return tree;
}

/** The CPU time the processes of `after` spent since `before` (a process new since then, all of its time), in µs. */
export function cpuSpent(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let spent = 0;
  for (const [pid, cpu] of after) spent += cpu - (before.get(pid) ?? 0);
  return spent;
}

/** The PostgreSQL postmaster listening on `port` (its command line names the port after `-p`), if any. */
export async function postmasterPid(port: number): Promise<number | undefined> {
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const words = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (!words[0]?.endsWith('postgres')) continue;
    const at = words.indexOf('-p');
    if (at !== -1 && words[at + 1] === String(port)) return Number(name);
  }
  return undefined;
}
