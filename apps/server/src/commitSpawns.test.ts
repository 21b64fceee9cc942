// What a file commit costs in processes (issue 25): through the API, on the demo project with its hooks,
// integrations and pipelines, a commit spawns git only for the commit itself once the long-lived git processes
// of the repository run. What the push's consumers read (its commits, its diff, the languages) comes from those
// processes or from what the commit already knows, in the request and in the jobs it queues.
//
// Every git process of this file's server is started through a `git` on PATH that appends its arguments to a
// log and runs the real git: the log counts them. The server finds git on PATH once (core/git/gitPath.ts),
// at its first spawn, so PATH is set before the server is made, and set back after.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollabApp, createApp } from './app.js';
import { DEMO_FIXTURES_PATH } from './config.js';
import { gitPath } from './core/git/gitPath.js';
import { readFixturesFile } from './core/store/fixturesFile.js';

const ADMIN_TOKEN = 'collab-demo-admin-token';
const PROJECT = encodeURIComponent('acme/website');
const COMMITS = 20;

const work = mkdtempSync(join(tmpdir(), 'collab-commit-spawns-'));
const spawnLog = join(work, 'git-spawns.log');
const originalPath = process.env.PATH ?? '';
let server: CollabApp;
let origin = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const wrapperDir = join(work, 'bin');
  mkdirSync(wrapperDir);
  const wrapper = join(wrapperDir, 'git');
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${spawnLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  process.env.PATH = `${wrapperDir}${delimiter}${originalPath}`;
  expect(gitPath(), 'the first git this module looks for').toBe(wrapper);

  server = await createApp({
    dataDir: join(work, 'data'),
    fixtures: await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)),
    pipelineTimeScale: 0.001,
  });
  const listener = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  close = async () => {
    listener.close();
    await server.close();
  };
}, 120_000);

afterAll(async () => {
  process.env.PATH = originalPath;
  await close();
  rmSync(work, { recursive: true, force: true });
});

async function commitFile(index: number, branch = 'main'): Promise<void> {
  const path = encodeURIComponent(`notes/${branch}-commit-${index}.md`);
  const response = await fetch(`${origin}/api/v4/projects/${PROJECT}/repository/files/${path}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ branch, content: `note ${index}\n`, commit_message: `Note ${index}` }),
  });
  expect(response.status, await response.text()).toBe(201);
}

const spawnedSoFar = (): string[] => readFileSync(spawnLog, 'utf8').split('\n').filter(Boolean);

describe('a file commit through the API', () => {
  it(`spawns git at most once per commit, jobs included (${COMMITS} commits after a first)`, {
    timeout: 180_000,
  }, async () => {
    // The first commit starts the repository's long-lived processes; its jobs run to the end.
    await commitFile(0);
    await server.context.jobs.idle(60_000);
    const before = spawnedSoFar().length;
    // The wrapper did see the server's git: the repositories made from the fixtures, the first commit's.
    expect(before).toBeGreaterThan(0);
    for (let i = 1; i <= COMMITS; i++) await commitFile(i);
    await server.context.jobs.idle(60_000);
    const spawned = spawnedSoFar().slice(before);
    expect(spawned.length, `git processes of ${COMMITS} commits:\n${spawned.join('\n')}`).toBeLessThanOrEqual(
      COMMITS,
    );
  });

  it(`spawns git at most once per commit to an open merge request's source branch (${COMMITS} commits)`, {
    timeout: 180_000,
  }, async () => {
    // develop is the source of the demo's open merge request: each commit updates it, and the project's
    // hook gets a merge request event (with the merge request's last commit) beside the push event.
    await commitFile(0, 'develop');
    await server.context.jobs.idle(60_000);
    const before = spawnedSoFar().length;
    for (let i = 1; i <= COMMITS; i++) await commitFile(i, 'develop');
    await server.context.jobs.idle(60_000);
    const spawned = spawnedSoFar().slice(before);
    expect(spawned.length, `git processes of ${COMMITS} commits:\n${spawned.join('\n')}`).toBeLessThanOrEqual(
      COMMITS,
    );
  });
});
