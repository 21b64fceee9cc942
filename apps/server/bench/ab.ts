// A/B comparison of two or more server builds or Node.js flag sets on one read: each side runs as its own
// server (one worker, demo data, five finished pipelines), and the sides are measured in turn, round after
// round, so that the drift of a shared machine weighs on all of them alike; medians are compared. A change
// worth a few percent is lost in the spread between two runs of `pnpm bench` (±5-10% here), not here.
//
//   pnpm --filter @collab/server bench:ab '/api/v4/projects/acme%2Fwebsite/repository/branches' \
//     before:dist=/tmp/dist-before after: small-heap:flags=--max-semi-space-size=4
//
// A side is `name:` (this build, the start script's flags) or `name:key=value,…` with `dist=DIR` (a compiled
// server, e.g. `tsc -p tsconfig.build.json --outDir DIR` of another commit), `commit=REV` (another commit of
// this repository with its own dependencies, patched ones included: exported to a directory under the system's
// temporary directory, installed from pnpm's store and built there, once), `flags=--a+--b` (Node.js flags,
// `+`-separated) or `workers=N`. AB_ROUNDS (default 7) and AB_SECONDS (default 3) set the rounds and length.
// The reads of issue 25 are compared with the main of before the validator's patch went:
//
//   pnpm --filter @collab/server bench:ab '/api/v4/projects/acme%2Fwebsite/repository/branches' \
//     before:commit=a78257c now:
import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMicroseconds, loadGeneratorName, measureInTurn, medianCpu, medianRate } from './load.js';
import {
  BENCH_TOKEN,
  runFinishedPipelines,
  SERVER_DIR,
  type ServerOptions,
  startServer,
  stop,
  warmedUp,
} from './server.js';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 7);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);

interface Side {
  name: string;
  options: Partial<ServerOptions>;
}

function parseSide(text: string): Side {
  const colon = text.indexOf(':');
  const name = colon === -1 ? text : text.slice(0, colon);
  const options: Partial<ServerOptions> = {};
  for (const setting of (colon === -1 ? '' : text.slice(colon + 1)).split(',').filter(Boolean)) {
    const equals = setting.indexOf('=');
    const [key, value] = [setting.slice(0, equals), setting.slice(equals + 1)];
    if (key === 'dist') options.builtDir = value;
    else if (key === 'commit') options.builtDir = builtCommit(value);
    else if (key === 'flags') options.nodeFlags = value.split('+').filter(Boolean);
    else if (key === 'workers') options.workers = Number(value);
    else throw new Error(`unknown setting ${setting} (dist=, commit=, flags= or workers=)`);
  }
  return { name, options };
}

/** The compiled server of a commit, exported, installed and built on first use; its `dist` directory. */
function builtCommit(rev: string): string {
  const run = (command: string, args: string[], cwd: string): string =>
    execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const sha = run('git', ['rev-parse', '--verify', `${rev}^{commit}`], SERVER_DIR).trim();
  const root = join(tmpdir(), `collab-ab-${sha.slice(0, 12)}`);
  const dist = join(root, 'apps/server/dist');
  if (existsSync(join(dist, 'main.js'))) return dist;
  console.log(`building ${rev} (${sha.slice(0, 12)}) in ${root}`);
  // From the repository's top: run in a subfolder, git archive would export that subfolder alone.
  const top = run('git', ['rev-parse', '--show-toplevel'], SERVER_DIR).trim();
  run('sh', ['-c', `mkdir -p '${root}' && git archive ${sha} | tar -x -C '${root}'`], top);
  run('pnpm', ['install', '--offline', '--frozen-lockfile', '--filter', '@collab/server...'], root);
  run('pnpm', ['--filter', '@collab/spec', 'build'], root);
  run('pnpm', ['--filter', '@collab/server', 'build'], root);
  return dist;
}

/** Resolves once the process used under 5% of a core for a whole second (at most 30 s). */
async function quiet(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const before = await cpuMicroseconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await cpuMicroseconds(pid);
    if (before === undefined || after === undefined || after - before < 50_000) return;
  }
}

const [path, ...sideTexts] = process.argv.slice(2);
if (!path?.startsWith('/') || sideTexts.length < 2) {
  console.error(
    "usage: ab.ts '/api/v4/…' name:[dist=DIR,flags=--a+--b,workers=N] name:… (two sides or more)",
  );
  process.exit(2);
}
const generator = await loadGeneratorName();
const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
const servers: (Side & { child: ChildProcess; origin: string; dataDir: string })[] = [];
try {
  for (const side of sideTexts.map(parseSide)) {
    const dataDir = await mkdtemp(join(tmpdir(), 'collab-ab-'));
    const server = await startServer({
      seed: 'demo',
      workers: 1,
      validateResponses: false,
      dataDir,
      ...side.options,
    });
    servers.push({ ...side, ...server, dataDir });
    // Measured once its validators are compiled (a build that warms them up after listening).
    await warmedUp(server.child, side.options.builtDir);
  }
  // Five finished pipelines on each side, as in `pnpm bench`.
  for (const server of servers) await runFinishedPipelines(server.origin);
  // Measured once every side is quiet: what a start leaves running for a while (the collection of the
  // warm-up's garbage, the pipelines' hook deliveries) is not counted against the first rounds of one side.
  for (const server of servers) await quiet(server.child.pid);
  console.log(
    `${generator}, ${ROUNDS} rounds of ${SECONDS} s, sides in turn (reversed every other round): ${path}`,
  );
  const results = await measureInTurn(
    generator,
    servers.map((server) => ({ url: `${server.origin}${path}`, headers, pid: server.child.pid })),
    { rounds: ROUNDS, seconds: SECONDS, warmUpSeconds: SECONDS },
  );
  for (const [index, server] of servers.entries()) {
    const sideResults = results[index] ?? [];
    // A failed request (an error status, or wrk's timeout on a machine too busy) is counted and shown.
    const failures = sideResults.reduce((sum, result) => sum + result.failures, 0);
    const rate = medianRate(sideResults);
    const runs = sideResults.map((result) => result.requestsPerSecond.toFixed(0)).join(' ');
    console.log(
      `  ${server.name.padEnd(16)} median ${rate.toFixed(0).padStart(6)} req/s  ${(1e6 / rate).toFixed(1).padStart(6)} us/request  server CPU ${medianCpu(sideResults).toFixed(0).padStart(4)} us/request   (${runs})${failures > 0 ? `   ${failures} failed` : ''}`,
    );
  }
} finally {
  // Every server started, whatever failed: none is left running after the comparison.
  for (const server of servers) {
    await stop(server.child);
    await rm(server.dataDir, { recursive: true, force: true });
  }
}
