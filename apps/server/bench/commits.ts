// Commit rows of the benchmark: file commits through the API, one after the other and by 4 writers on 4
// branches, and commits to a repository of 10,000 files as a share of commits to the demo repository. A commit
// must cost what the commit costs: not what the repository holds, nor what its push's consumers re-read.
//
// The large repository is filled while the server is stopped (one `git fast-import`), as scale.ts does.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SQLite } from '../src/core/store/sqliteDriver.js';
import { BENCH_TOKEN } from './server.js';

/** Files in the large repository. */
export const FILES_SCALE = 10_000;
/** The large repository's project, under the `acme` group. */
export const FILES_SCALE_PROJECT = `files-${FILES_SCALE}`;

interface FixtureProject {
  path: string;
  hooks?: unknown;
  integrations?: unknown;
  repository?: { files?: Record<string, string> };
}

/**
 * The demo fixtures plus one public project whose repository will hold FILES_SCALE files, with the demo
 * repository's push consumers (its hook, its integrations, its pipeline configuration), so that the two
 * differ only in size.
 */
export async function writeCommitFixtures(demoPath: string, target: string): Promise<void> {
  const fixtures = JSON.parse(await readFile(demoPath, 'utf8')) as { projects: FixtureProject[] };
  const demo = fixtures.projects.find((project) => project.path === 'website');
  const ci = demo?.repository?.files?.['.collab-ci.yml'];
  fixtures.projects.push({
    namespace: 'acme',
    path: FILES_SCALE_PROJECT,
    name: `Files ${FILES_SCALE}`,
    visibility: 'public',
    creator: 'maintainer',
    description: `${FILES_SCALE} files.`,
    hooks: demo?.hooks,
    integrations: demo?.integrations,
    repository: {
      files: {
        'README.md': `# Files ${FILES_SCALE}\n`,
        ...(ci === undefined ? {} : { '.collab-ci.yml': ci }),
      },
    },
  } as FixtureProject);
  await writeFile(target, JSON.stringify(fixtures));
}

function git(gitDir: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`git ${args[0]} exited with ${code}`)),
    );
    child.stdin.end(input);
  });
}

/**
 * Adds FILES_SCALE files (100 directories of 100 source files) to the large project's default branch in one
 * commit, in a stopped server's data directory.
 */
export async function seedFilesScale(dataDir: string): Promise<void> {
  const db = new SQLite(join(dataDir, 'collab.sqlite3'));
  let project: { id: number; repository_storage: string; default_branch: string };
  try {
    project = db
      .prepare('select id, repository_storage, default_branch from projects where path = ?')
      .get(FILES_SCALE_PROJECT) as typeof project;
  } finally {
    db.close();
  }
  const gitDir = join(dataDir, 'repositories', project.repository_storage, `${project.id}.git`);
  const ref = `refs/heads/${project.default_branch}`;
  const tip = (await git(gitDir, ['rev-parse', ref])).trim();
  const when = Math.floor(Date.now() / 1000);
  const message = `${FILES_SCALE} files\n`;
  const commands = [
    `commit ${ref}`,
    `committer Bench <bench@example.com> ${when} +0000`,
    `data ${Buffer.byteLength(message)}`,
    message,
    `from ${tip}`,
  ];
  for (let i = 0; i < FILES_SCALE; i++) {
    const content = `export const value${i} = ${i};\n`;
    const dir = `src/module-${String(Math.floor(i / 100)).padStart(3, '0')}`;
    commands.push(`M 100644 inline ${dir}/file-${i}.ts`, `data ${Buffer.byteLength(content)}`, content);
  }
  await git(gitDir, ['fast-import', '--quiet'], `${commands.join('\n')}\n`);
}

/**
 * Commits `count` new files to `branch` of `project` (a path under `acme`), one request after the other;
 * returns how many succeeded.
 */
export async function commitSequence(
  origin: string,
  project: string,
  branch: string,
  count: number,
  prefix = 'bench',
): Promise<number> {
  const api = `${origin}/api/v4/projects/acme%2F${project}/repository/files`;
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${api}/${encodeURIComponent(`${prefix}/${branch}/file-${i}.txt`)}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': BENCH_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, content: `commit ${i}\n`, commit_message: `bench ${i}` }),
    });
    if (response.status === 201) ok++;
    await response.arrayBuffer();
  }
  return ok;
}

/** Commits per second of `commitSequence`. */
export async function commitRate(
  origin: string,
  project: string,
  branch: string,
  count: number,
  prefix: string,
): Promise<{ rate: number; ok: number }> {
  const started = performance.now();
  const ok = await commitSequence(origin, project, branch, count, prefix);
  return { rate: ok / ((performance.now() - started) / 1000), ok };
}
