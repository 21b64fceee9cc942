// The CPU time and minor page faults of a process and every process below it (Linux's /proc): a server of
// several workers (the primary's children) or a PostgreSQL cluster (the postmaster's backends), whose own
// /proc/PID/stat counts none of its children's while they run. The page faults are shown because they tell
// the slow rounds of a Node.js process: its garbage collector gives heap pages back and takes new ones, each
// first touch a fault, and on a virtual machine a fault costs the time of much code.
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/PID/stat's times (Linux's USER_HZ, 100 on every common platform). */
const TICKS_PER_SECOND = 100;

/** What a process has used since it started. */
export interface Usage {
  /** User plus system CPU time, in µs. */
  cpu: number;
  /** Minor page faults (a page mapped on first touch, no disk read). */
  minorFaults: number;
}

interface ProcessStat extends Usage {
  pid: number;
  parent: number;
}

async function processStats(): Promise<ProcessStat[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const stats = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const text = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
        if (text === undefined) return undefined;
        // After the command name (in parentheses, which may hold spaces): state, ppid, ... minflt (10), ...
        // utime (14), stime (15).
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        const cpu = ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
        return { pid: Number(name), parent: Number(fields[1]), cpu, minorFaults: Number(fields[7]) };
      }),
  );
  return stats.filter((stat): stat is ProcessStat => stat !== undefined);
}

/**
 * The usage of each process of the tree under `root` (itself included), by PID. Compare two readings PID by
 * PID: a process that ended between them is missing from the second.
 */
export async function treeUsage(root: number): Promise<Map<number, Usage>> {
  const stats = await processStats();
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const tree = new Map<number, Usage>();
  const visit = (stat: ProcessStat) => {
    tree.set(stat.pid, { cpu: stat.cpu, minorFaults: stat.minorFaults });
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  const top = stats.find((stat) => stat.pid === root);
  if (top) visit(top);
  return tree;
}

/** What the processes of `after` used since `before` (a process new since then, all it used). */
export function usageSince(before: ReadonlyMap<number, Usage>, after: ReadonlyMap<number, Usage>): Usage {
  const spent = { cpu: 0, minorFaults: 0 };
  for (const [pid, usage] of after) {
    spent.cpu += usage.cpu - (before.get(pid)?.cpu ?? 0);
    spent.minorFaults += usage.minorFaults - (before.get(pid)?.minorFaults ?? 0);
  }
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
