// The memory of a process and its children (the server's workers), sampled every 100 ms: the peak of the
// summed RSS (which counts the pages the processes share once per process) and of the summed PSS (which
// splits shared pages between them: the memory the server really takes).
import { readdir, readFile } from 'node:fs/promises';

export interface MemoryPeak {
  rssMb: number;
  pssMb: number;
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
  );
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
}

async function processTree(pid: number): Promise<number[]> {
  const children = await childrenOf(pid);
  const descendants = await Promise.all(children.map(processTree));
  return [pid, ...descendants.flat()];
}

async function kilobytes(path: string, field: string): Promise<number> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
}

/** Samples until stop() is called; stop() returns the peaks. */
export function sampleMemory(pid: number): { stop(): Promise<MemoryPeak> } {
  const peak = { rssKb: 0, pssKb: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const pids = await processTree(pid);
      const rss = await Promise.all(pids.map((p) => kilobytes(`/proc/${p}/status`, 'VmRSS')));
      const pss = await Promise.all(pids.map((p) => kilobytes(`/proc/${p}/smaps_rollup`, 'Pss')));
      peak.rssKb = Math.max(
        peak.rssKb,
        rss.reduce((a, b) => a + b, 0),
      );
      peak.pssKb = Math.max(
        peak.pssKb,
        pss.reduce((a, b) => a + b, 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { rssMb: peak.rssKb / 1024, pssMb: peak.pssKb / 1024 };
    },
  };
}
