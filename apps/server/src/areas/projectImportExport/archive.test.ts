import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepository, initBareRepository } from '../../core/git/repository.js';
import {
  parseProjectJson,
  parseProtectedBranch,
  readProjectArchive,
  writeProjectArchive,
} from './archive.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'collab-archive-test-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('parseProjectJson', () => {
  const valid = {
    name: 'Website',
    path: 'website',
    description: null,
    visibility: 'public',
    default_branch: 'main',
  };

  it('reads a project and fills the optional fields', () => {
    expect(parseProjectJson(JSON.stringify(valid))).toEqual({
      ok: true,
      value: { ...valid, repository_empty: false, protected_branches: [] },
    });
  });

  it('refuses what the import cannot create a project from', () => {
    for (const [text, error] of [
      ['not json', /not valid JSON/],
      ['[]', /JSON object/],
      [JSON.stringify({ ...valid, name: '' }), /name/],
      [JSON.stringify({ ...valid, visibility: 'everyone' }), /visibility/],
      [JSON.stringify({ ...valid, default_branch: 'release/*' }), /default_branch/],
      [JSON.stringify({ ...valid, description: 3 }), /description/],
      [JSON.stringify({ ...valid, protected_branches: {} }), /protected_branches/],
    ] as const) {
      const parsed = parseProjectJson(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(error);
    }
  });
});

describe('parseProtectedBranch', () => {
  it('reads a rule and defaults unprotect to maintainers', () => {
    const parsed = parseProtectedBranch({
      name: 'release/*',
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 30 }],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: 'release/*',
        code_owner_approval_required: false,
        allow_force_push: false,
        push_access_levels: [{ access_level: 40 }],
        merge_access_levels: [{ access_level: 30 }],
        unprotect_access_levels: [{ access_level: 40 }],
      },
    });
  });

  it('keeps allow_force_push', () => {
    const parsed = parseProtectedBranch({
      name: 'main',
      allow_force_push: true,
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 40 }],
    });
    expect(parsed.ok && parsed.value.allow_force_push).toBe(true);
  });

  it('refuses bad names, levels and shapes', () => {
    const levels = {
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 40 }],
    };
    for (const item of [
      null,
      'main',
      { ...levels, name: 'bad..name' },
      { ...levels, name: 'main', push_access_levels: [{ access_level: 35 }] },
      { ...levels, name: 'main', merge_access_levels: [] },
      { ...levels, name: 'main', code_owner_approval_required: 'yes' },
      { ...levels, name: 'main', allow_force_push: 'true' },
    ]) {
      expect(parseProtectedBranch(item).ok, JSON.stringify(item)).toBe(false);
    }
  });
});

describe('writing and reading an archive', () => {
  const project = {
    name: 'Demo',
    path: 'demo',
    description: 'A demo',
    visibility: 'private' as const,
    default_branch: 'main',
    protected_branches: [],
  };

  it('round-trips the project and a bundle that clones to the same branches', async () => {
    const repo = await initBareRepository(join(root, 'source.git'), 'main');
    const committed = await repo.commitFileChange({
      branch: 'main',
      action: 'create',
      filePath: 'README.md',
      content: Buffer.from('# demo\n'),
      message: 'init',
      authorName: 'A',
      authorEmail: 'a@example.com',
      committerName: 'A',
      committerEmail: 'a@example.com',
    });
    expect(committed.ok).toBe(true);
    await repo.createBranch('topic', 'main');
    const archive = join(root, 'demo.tar.gz');
    await writeProjectArchive(repo, project, archive);

    const read = await readProjectArchive(archive, join(root, 'work'));
    if (!read.ok) throw new Error(read.error);
    expect(read.value.project).toMatchObject({ ...project, repository_empty: false });
    const clone = await GitRepository.cloneFromBundle(read.value.bundlePath ?? '', join(root, 'clone.git'));
    expect((await clone.listBranches()).map((b) => [b.name, b.commit.id])).toEqual(
      (await repo.listBranches()).map((b) => [b.name, b.commit.id]),
    );
  });

  it('archives an empty repository without a bundle', async () => {
    const repo = await initBareRepository(join(root, 'empty.git'), 'main');
    const archive = join(root, 'empty.tar.gz');
    await writeProjectArchive(repo, project, archive);
    const read = await readProjectArchive(archive, join(root, 'work-empty'));
    expect(read).toMatchObject({
      ok: true,
      value: { bundlePath: null, project: { repository_empty: true } },
    });
  });

  it('refuses files that are not export archives', async () => {
    const notGzip = join(root, 'not-gzip.tar.gz');
    await writeFile(notGzip, 'plain text');
    const staging = join(root, 'staging');
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    await writeFile(join(staging, 'project.json'), JSON.stringify(project));
    const noVersion = join(root, 'no-version.tar.gz');
    await tar.create({ gzip: true, file: noVersion, cwd: staging }, ['project.json']);
    await writeFile(join(staging, 'VERSION'), '99\n');
    const newVersion = join(root, 'new-version.tar.gz');
    await tar.create({ gzip: true, file: newVersion, cwd: staging }, ['VERSION', 'project.json']);
    await writeFile(join(staging, 'VERSION'), '1\n');
    const noBundle = join(root, 'no-bundle.tar.gz');
    await tar.create({ gzip: true, file: noBundle, cwd: staging }, ['VERSION', 'project.json']);

    for (const [file, error] of [
      [notGzip, /not a valid gzip tar/],
      [noVersion, /VERSION is missing/],
      [newVersion, /Unsupported export version: 99/],
      [noBundle, /project\.bundle/],
    ] as const) {
      const read = await readProjectArchive(file, join(root, 'work-bad'));
      expect(read.ok, file).toBe(false);
      if (!read.ok) expect(read.error).toMatch(error);
    }
  });

  it('extracts only the known files, never a path outside the work directory', async () => {
    const staging = join(root, 'evil');
    await mkdir(join(staging, 'sub'), { recursive: true });
    await writeFile(join(staging, 'VERSION'), '1\n');
    await writeFile(join(staging, 'sub', 'project.json'), '{}');
    const archive = join(root, 'evil.tar.gz');
    await tar.create({ gzip: true, file: archive, cwd: staging }, ['VERSION', 'sub/project.json']);
    const read = await readProjectArchive(archive, join(root, 'work-evil'));
    expect(read).toEqual({ ok: false, error: 'project.json is missing from the archive' });
  });
});
