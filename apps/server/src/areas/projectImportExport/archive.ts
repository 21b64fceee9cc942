// The project export archive: a gzip tar with `VERSION`, `project.json` (the project's attributes and its
// protected branches) and `project.bundle` (every branch and tag of the repository as a git bundle).
// This module writes and reads that format; it knows nothing of HTTP, the database or jobs.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_VISIBILITIES, type ProjectVisibility } from '../../core/access/newProjects.js';
import type { GitRepository } from '../../core/git/repository.js';
import { isValidBranchPattern } from '../protectedBranches/index.js';

export const ARCHIVE_VERSION = '1';
export const VERSION_FILE = 'VERSION';
export const PROJECT_FILE = 'project.json';
export const BUNDLE_FILE = 'project.bundle';
const ARCHIVE_ENTRIES = new Set([VERSION_FILE, PROJECT_FILE, BUNDLE_FILE]);

export const VISIBILITIES = PROJECT_VISIBILITIES;
export type Visibility = ProjectVisibility;

/** The access levels a protected-branch rule may name (0 no one, 30 developers, 40 maintainers, 60 admins). */
export const PROTECTION_LEVELS = [0, 30, 40, 60] as const;
export const PROTECTION_ACTIONS = ['push', 'merge', 'unprotect'] as const;
export type ProtectionActionName = (typeof PROTECTION_ACTIONS)[number];

/**
 * A protected-branch rule as archived. Only role levels travel: entries naming a user or a group refer to
 * IDs of the exporting server and mean nothing elsewhere.
 */
export interface ArchivedProtectedBranch {
  name: string;
  code_owner_approval_required: boolean;
  /** GitLab's `allow_force_push`; absent in an older archive, read as false (GitLab's default). */
  allow_force_push: boolean;
  push_access_levels: { access_level: number }[];
  merge_access_levels: { access_level: number }[];
  unprotect_access_levels: { access_level: number }[];
}

/** What `project.json` holds. Protected branches are checked one by one on import (see parseProtectedBranch). */
export interface ArchivedProject {
  name: string;
  path: string;
  description: string | null;
  visibility: Visibility;
  default_branch: string;
  /** True when the repository had no refs, so the archive has no bundle (git cannot bundle nothing). */
  repository_empty: boolean;
  protected_branches: unknown[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/* ------------------------------------------------------------------------------------------------ */
/* Validation (pure)                                                                                 */
/* ------------------------------------------------------------------------------------------------ */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the top level of `project.json`; a project the import cannot create from is an error. */
export function parseProjectJson(text: string): Parsed<ArchivedProject> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${PROJECT_FILE} is not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(data)) return { ok: false, error: `${PROJECT_FILE} must hold a JSON object` };
  const invalid = (field: string, expected: string): Parsed<ArchivedProject> => ({
    ok: false,
    error: `${PROJECT_FILE} is invalid: ${field} must be ${expected}`,
  });
  const { name, path, description, visibility, default_branch, repository_empty, protected_branches } = data;
  if (typeof name !== 'string' || name.length === 0) return invalid('name', 'a non-empty string');
  if (typeof path !== 'string' || path.length === 0) return invalid('path', 'a non-empty string');
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return invalid('description', 'a string or null');
  }
  if (typeof visibility !== 'string' || !(VISIBILITIES as readonly string[]).includes(visibility)) {
    return invalid('visibility', `one of ${VISIBILITIES.join(', ')}`);
  }
  if (
    typeof default_branch !== 'string' ||
    !isValidBranchPattern(default_branch) ||
    default_branch.includes('*')
  ) {
    return invalid('default_branch', 'a branch name');
  }
  if (repository_empty !== undefined && typeof repository_empty !== 'boolean')
    return invalid('repository_empty', 'a boolean');
  if (protected_branches !== undefined && !Array.isArray(protected_branches))
    return invalid('protected_branches', 'an array');
  return {
    ok: true,
    value: {
      name,
      path,
      description: description ?? null,
      visibility: visibility as Visibility,
      default_branch,
      repository_empty: repository_empty ?? false,
      protected_branches: protected_branches ?? [],
    },
  };
}

/** Checks one archived protected-branch rule; a bad rule is a failed relation, not a failed import. */
export function parseProtectedBranch(item: unknown): Parsed<ArchivedProtectedBranch> {
  if (!isObject(item)) return { ok: false, error: 'a protected branch must be an object' };
  const { name, code_owner_approval_required, allow_force_push } = item;
  if (typeof name !== 'string' || !isValidBranchPattern(name)) {
    return { ok: false, error: `Name is not a valid branch name or wildcard: ${JSON.stringify(name)}` };
  }
  if (code_owner_approval_required !== undefined && typeof code_owner_approval_required !== 'boolean') {
    return { ok: false, error: 'code_owner_approval_required must be a boolean' };
  }
  if (allow_force_push !== undefined && typeof allow_force_push !== 'boolean') {
    return { ok: false, error: 'allow_force_push must be a boolean' };
  }
  const levels: Partial<Record<ProtectionActionName, { access_level: number }[]>> = {};
  for (const action of PROTECTION_ACTIONS) {
    const key = `${action}_access_levels`;
    const entries = item[key] ?? (action === 'unprotect' ? [{ access_level: 40 }] : undefined);
    if (!Array.isArray(entries) || entries.length === 0)
      return { ok: false, error: `${key} must be a non-empty array` };
    for (const entry of entries) {
      const level = isObject(entry) ? entry.access_level : undefined;
      if (typeof level !== 'number' || !(PROTECTION_LEVELS as readonly number[]).includes(level)) {
        return { ok: false, error: `${key} has an invalid access level: ${JSON.stringify(level)}` };
      }
    }
    levels[action] = (entries as { access_level: number }[]).map((entry) => ({
      access_level: entry.access_level,
    }));
  }
  return {
    ok: true,
    value: {
      name,
      code_owner_approval_required: code_owner_approval_required ?? false,
      allow_force_push: allow_force_push ?? false,
      push_access_levels: levels.push ?? [],
      merge_access_levels: levels.merge ?? [],
      unprotect_access_levels: levels.unprotect ?? [],
    },
  };
}

/* ------------------------------------------------------------------------------------------------ */
/* Writing and reading archives                                                                      */
/* ------------------------------------------------------------------------------------------------ */

/**
 * Writes the archive of `repository` and `project` to `outputFile`. The archive is built beside it and
 * renamed into place, so `outputFile` is either absent or complete.
 */
export async function writeProjectArchive(
  repository: GitRepository,
  project: Omit<ArchivedProject, 'repository_empty' | 'protected_branches'> & {
    protected_branches: ArchivedProtectedBranch[];
  },
  outputFile: string,
): Promise<void> {
  const staging = `${outputFile}.staging`;
  const partial = `${outputFile}.partial`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    let repositoryEmpty = false;
    try {
      await repository.createBundle(join(staging, BUNDLE_FILE));
    } catch (error) {
      // git refuses to bundle a repository without refs; anything else is a real failure.
      if ((await repository.listBranches()).length > 0) throw error;
      repositoryEmpty = true;
    }
    const archived: ArchivedProject = { ...project, repository_empty: repositoryEmpty };
    await writeFile(join(staging, VERSION_FILE), `${ARCHIVE_VERSION}\n`);
    await writeFile(join(staging, PROJECT_FILE), `${JSON.stringify(archived, null, 2)}\n`);
    const entries = repositoryEmpty
      ? [VERSION_FILE, PROJECT_FILE]
      : [VERSION_FILE, PROJECT_FILE, BUNDLE_FILE];
    // tar (and the assert module it loads) is loaded on the first export, not at every start of the server.
    const tar = await import('tar');
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
    await rename(partial, outputFile);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

export interface ProjectArchiveContents {
  project: ArchivedProject;
  /** The extracted bundle, or null when the exported repository was empty. */
  bundlePath: string | null;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Extracts the archive into `workDir` (which is emptied first) and checks it. Only the three known files at
 * the top level are extracted, never links or directories, so an archive cannot write outside `workDir`.
 */
export async function readProjectArchive(
  archiveFile: string,
  workDir: string,
): Promise<Parsed<ProjectArchiveContents>> {
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const tar = await import('tar');
  try {
    await tar.extract({
      file: archiveFile,
      cwd: workDir,
      strict: true,
      filter: (path, entry) =>
        ARCHIVE_ENTRIES.has(path.replace(/^\.\//, '')) && 'type' in entry && entry.type === 'File',
    });
  } catch (error) {
    return { ok: false, error: `The archive is not a valid gzip tar file: ${(error as Error).message}` };
  }
  if (!(await exists(join(workDir, VERSION_FILE)))) {
    return { ok: false, error: `The archive is not a project export: ${VERSION_FILE} is missing` };
  }
  const version = (await readFile(join(workDir, VERSION_FILE), 'utf8')).trim();
  if (version !== ARCHIVE_VERSION)
    return { ok: false, error: `Unsupported export version: ${version.slice(0, 40)}` };
  if (!(await exists(join(workDir, PROJECT_FILE))))
    return { ok: false, error: `${PROJECT_FILE} is missing from the archive` };
  const project = parseProjectJson(await readFile(join(workDir, PROJECT_FILE), 'utf8'));
  if (!project.ok) return project;
  const bundlePath = join(workDir, BUNDLE_FILE);
  if (await exists(bundlePath)) return { ok: true, value: { project: project.value, bundlePath } };
  if (project.value.repository_empty)
    return { ok: true, value: { project: project.value, bundlePath: null } };
  return { ok: false, error: `${BUNDLE_FILE} (the repository) is missing from the archive` };
}
