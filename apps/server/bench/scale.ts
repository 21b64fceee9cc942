// Scale rows of the benchmark: a list must cost what its page costs, not what its collection costs. Two
// projects of the same shape, one with 10 and one with 10,000 branches (each on its own commit),
// pipelines and deploy keys, are served by one server; each list is measured on both with the same page
// size, and the large figure is printed as a share of the small one.
//
// The items are written straight into the data directory while the server is stopped (SQL inserts into its
// database, one `git fast-import` for the commits and branches), which takes seconds where 10,000 API
// calls would take minutes.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sshString } from '../src/areas/deployKeys/sshKeys.testSupport.js';
import { SQLite } from '../src/core/store/sqliteDriver.js';

export const SCALE_SIZES = [10, 10_000] as const;
/** Both projects are read with this page size, so that only the collection differs. */
export const SCALE_PER_PAGE = 10;

/** The project (path under the `acme` group) that holds `size` items of each kind. */
export function scaleProjectPath(size: number): string {
  return `scale-${size}`;
}

/** The demo fixtures plus one public project per size, of the same shape as the demo's `acme/tools`. */
export async function writeScaleFixtures(demoPath: string, target: string): Promise<void> {
  const fixtures = JSON.parse(await readFile(demoPath, 'utf8')) as { projects: unknown[] };
  for (const size of SCALE_SIZES) {
    fixtures.projects.push({
      namespace: 'acme',
      path: scaleProjectPath(size),
      name: `Scale ${size}`,
      visibility: 'public',
      creator: 'maintainer',
      description: `${size} branches, pipelines and deploy keys.`,
      repository: { files: { 'README.md': `# Scale ${size}\n` } },
    });
  }
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

/** `count` branches `scale/NNNNN`, each on a commit of its own on top of the default branch. */
async function seedBranches(gitDir: string, defaultBranch: string, count: number): Promise<void> {
  const tip = (await git(gitDir, ['rev-parse', `refs/heads/${defaultBranch}`])).trim();
  const when = Math.floor(Date.now() / 1000);
  const commands: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = `Branch ${i}\n`;
    commands.push(
      `commit refs/heads/scale/${String(i).padStart(5, '0')}`,
      `committer Bench <bench@example.com> ${when} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      `from ${tip}`,
      '',
    );
  }
  await git(gitDir, ['fast-import', '--quiet'], `${commands.join('\n')}\n`);
  // As `git gc` leaves a repository: the refs in one packed file.
  await git(gitDir, ['pack-refs', '--all']);
}

/** A well-formed ed25519 public key line (random key material) and its SHA256 fingerprint. */
function randomDeployKey(): { key: string; fingerprint: string } {
  const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(randomBytes(32))]);
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { key: `ssh-ed25519 ${blob.toString('base64')} bench`, fingerprint };
}

/** Fills each scale project of a stopped server's data directory with its items. */
export async function seedScaleProjects(dataDir: string): Promise<void> {
  const db = new SQLite(join(dataDir, 'collab.sqlite3'));
  try {
    const userId = (db.prepare("select id from users where username = 'maintainer'").get() as { id: number })
      .id;
    for (const size of SCALE_SIZES) {
      const project = db
        .prepare('select id, repository_storage, default_branch from projects where path = ?')
        .get(scaleProjectPath(size)) as { id: number; repository_storage: string; default_branch: string };
      const gitDir = join(dataDir, 'repositories', project.repository_storage, `${project.id}.git`);
      await seedBranches(gitDir, project.default_branch, size);
      const sha = (await git(gitDir, ['rev-parse', `refs/heads/${project.default_branch}`])).trim();
      const now = new Date().toISOString();
      const insertPipeline = db.prepare(
        `insert into pipelines (project_id, sha, before_sha, ref, tag, status, source, yaml_errors, user_id,
           created_at, updated_at, started_at, finished_at, committed_at, duration, coverage)
         values (?, ?, ?, ?, 0, 'success', 'push', null, ?, ?, ?, ?, ?, ?, 1, null)`,
      );
      const insertKey = db.prepare(
        'insert into deploy_keys (title, key, fingerprint_sha256, created_at) values (?, ?, ?, ?)',
      );
      const enableKey = db.prepare(
        'insert into deploy_keys_projects (project_id, deploy_key_id, can_push, created_at) values (?, ?, 0, ?)',
      );
      db.transaction(() => {
        for (let i = 0; i < size; i++) {
          insertPipeline.run(
            project.id,
            sha,
            '0'.repeat(40),
            project.default_branch,
            userId,
            now,
            now,
            now,
            now,
            now,
          );
          const { key, fingerprint } = randomDeployKey();
          const keyId = insertKey.run(`bench key ${i}`, key, fingerprint, now).lastInsertRowid;
          enableKey.run(project.id, keyId, now);
        }
      })();
    }
  } finally {
    db.close();
  }
}

/** The list URLs measured for each size, by row name. */
export function scaleLists(origin: string, size: number): [string, string][] {
  const project = `${origin}/api/v4/projects/acme%2F${scaleProjectPath(size)}`;
  const page = `per_page=${SCALE_PER_PAGE}`;
  return [
    ['list branches', `${project}/repository/branches?${page}`],
    ['list pipelines', `${project}/pipelines?${page}`],
    ['list deploy keys', `${project}/deploy_keys?${page}`],
  ];
}
