// A/B comparison of two or more server builds on serial file commits to `develop` (the source branch of the
// demo's open merge request, as in `pnpm bench`): each side runs as its own server (one worker, demo data),
// and the sides commit in turn, round after round (reversed every other round), so that the drift of a shared
// machine weighs on all of them alike. Prints each side's median rate and median server CPU per commit.
//
//   pnpm --filter @collab/server exec tsx bench/commitsAb.ts before:/tmp/dist-before after:dist
//
// A side is `name:DIR` (a compiled server's dist directory, relative to this package or absolute).
// AB_ROUNDS (default 7) and AB_COMMITS (commits per round, default 100) set the rounds and their length.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { commitRate } from './commits.js';
import { cpuMicroseconds } from './load.js';
import { SERVER_DIR, startServer, stop, warmedUp } from './server.js';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 7);
const COMMITS = Number(process.env.AB_COMMITS ?? 100);

const sides = process.argv.slice(2).map((text) => {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new Error(`a side is name:DIR, got ${text}`);
  return { name: text.slice(0, colon), builtDir: resolve(SERVER_DIR, text.slice(colon + 1)) };
});
if (sides.length < 2) {
  console.error('usage: commitsAb.ts name:DIST name:DIST (two sides or more)');
  process.exit(2);
}

const servers = [];
for (const side of sides) {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-commits-ab-'));
  const server = await startServer({
    seed: 'demo',
    workers: 1,
    validateResponses: false,
    dataDir,
    builtDir: side.builtDir,
  });
  await warmedUp(server.child, side.builtDir);
  servers.push({ ...side, ...server, dataDir, rates: [] as number[], cpu: [] as number[] });
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
console.log(`${ROUNDS} rounds of ${COMMITS} serial commits to develop, sides in turn`);
// A warm-up on every side: a fresh server's first hundred commits cost nearly twice the CPU of later ones.
for (const server of servers) await commitRate(server.origin, 'website', 'develop', 100, 'warm-up');
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? servers : [...servers].reverse();
  for (const server of order) {
    const before = await cpuMicroseconds(server.child.pid ?? 0);
    const { rate, ok } = await commitRate(server.origin, 'website', 'develop', COMMITS, `round-${round}`);
    const after = await cpuMicroseconds(server.child.pid ?? 0);
    if (ok !== COMMITS) throw new Error(`${server.name}: ${COMMITS - ok} commits failed`);
    server.rates.push(rate);
    if (before !== undefined && after !== undefined) server.cpu.push((after - before) / ok / 1000);
  }
}
for (const server of servers) {
  console.log(
    `  ${server.name.padEnd(16)} median ${median(server.rates).toFixed(1).padStart(6)} commits/s  server CPU ${median(server.cpu).toFixed(2).padStart(6)} ms/commit   (${server.rates.map((rate) => rate.toFixed(0)).join(' ')})`,
  );
  await stop(server.child);
  await rm(server.dataDir, { recursive: true, force: true });
}
