// Project import (document 1, section 4.7): the request, the status, and the import job.
//
// The request creates the project row at once (so its import status can be followed) with an empty
// repository, stores the archive and queues the job: `scheduled` → `started` → `finished`, or `failed` with
// `import_error` when the archive is unusable (not a gzip tar, no VERSION, an invalid project.json, a missing
// or corrupt bundle). Protected-branch rules that cannot be restored do not fail the import: each becomes a
// failed relation (at most 100 are kept).
//
// `overwrite=true` on a taken path keeps the existing project (its ID, members and the data of other areas)
// and replaces its attributes, protected branches and repository when the import succeeds; a failed import
// leaves it as it was. GitLab creates a new project and moves such data over, which amounts to the same.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Updateable } from 'kysely';
import {
  AccessLevel,
  findProject,
  type ProjectRow,
  projectAccessLevel,
  resolveProject,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import {
  cappedVisibility,
  isValidProjectPath,
  namespaceForNewProject,
  PROJECT_PATH_RULE,
  visibilityNotAllowed,
} from '../../core/access/newProjects.js';
import { projectIdentity } from '../../core/access/projectIdentity.js';
import type { ServerContext } from '../../core/context.js';
import { GitRepository, initBareRepository } from '../../core/git/repository.js';
import { ApiError, forbidden, invalidParameter, missingParameter } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import { isUniqueViolation, nowIso } from '../../core/store/database.js';
import type { ProjectImportsTable } from '../../core/store/tables.js';
import { replaceProtectedBranches } from '../protectedBranches/index.js';
import {
  type ArchivedProtectedBranch,
  PROTECTION_ACTIONS,
  parseProtectedBranch,
  readProjectArchive,
  VISIBILITIES,
  type Visibility,
} from './archive.js';
import {
  applyImportedProject,
  findImport,
  findNamespace,
  findProjectByPath,
  findProjectRow,
  importFailures,
  recordImportRequest,
  replaceImportFailures,
  updateImport,
} from './store.js';

export const IMPORT_JOB = 'project_import';
export const MAX_FAILED_RELATIONS = 100;

export interface ImportJobPayload {
  projectId: number;
  /** The import request this job serves; a newer import of the same project supersedes it. */
  correlationId: string;
}

export type ProjectImportStatus = Schemas['ProjectImportStatus'];
type ImportState = ProjectImportStatus['import_status'];

/** The multipart form after validation, with the uploaded archive (multer keeps it in memory). */
export interface ImportRequest {
  file: Buffer | undefined;
  path: string;
  namespace?: number | string;
  name?: string;
  overwrite?: boolean;
  override_params?: Record<string, unknown>;
}

/** The project fields `override_params` may set here; other Projects API fields are accepted and ignored. */
export interface ImportOverrides {
  name?: string;
  description?: string;
  visibility?: Visibility;
  default_branch?: string;
}

/* ------------------------------------------------------------------------------------------------ */
/* Request rules (pure)                                                                              */
/* ------------------------------------------------------------------------------------------------ */

/** Checks the fields of `override_params` that apply to this server's projects; throws a 400 otherwise. */
export function parseOverrideParams(value: unknown): ImportOverrides {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParameter('override_params');
  const params = value as Record<string, unknown>;
  const overrides: ImportOverrides = {};
  for (const field of ['name', 'description', 'default_branch'] as const) {
    const given = params[field];
    if (given === undefined) continue;
    if (typeof given !== 'string' || (field !== 'description' && given.trim() === ''))
      throw invalidParameter(`override_params[${field}]`);
    overrides[field] = given;
  }
  if (params.visibility !== undefined) {
    if (!(VISIBILITIES as readonly unknown[]).includes(params.visibility))
      throw invalidParameter('override_params[visibility]');
    overrides.visibility = params.visibility as Visibility;
  }
  return overrides;
}

/* ------------------------------------------------------------------------------------------------ */
/* Requests                                                                                          */
/* ------------------------------------------------------------------------------------------------ */

async function importStatusOf(context: ServerContext, project: ProjectRow): Promise<ProjectImportStatus> {
  const { db } = context;
  // The import's state first, then the project as it is now: a status that says `finished` comes with the
  // attributes the import wrote in the same transaction. (The row resolved for access may predate that
  // commit: with several connections, as on PostgreSQL, the commit can land between the two reads.)
  const row = await findImport(db, project.id);
  const identity = await projectIdentity(db, await findProjectRow(db, project.id));
  const failures = await importFailures(db, project.id, MAX_FAILED_RELATIONS);
  return {
    ...identity,
    import_status: (row?.status ?? 'none') as ImportState,
    correlation_id: row?.correlation_id ?? null,
    failed_relations: failures,
    import_error: row?.status === 'failed' ? (row.import_error ?? 'import failed') : null,
  };
}

/** POST /projects/import. */
export async function importProject(
  context: ServerContext,
  caller: Caller,
  request: ImportRequest,
): Promise<ProjectImportStatus> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const { db } = context;
  if (!request.file) throw missingParameter('file');
  if (!isValidProjectPath(request.path)) throw new ApiError(400, { message: { path: [PROJECT_PATH_RULE] } });
  const overrides = parseOverrideParams(request.override_params);
  const name = request.name ?? overrides.name ?? request.path;
  if (name.trim() === '') throw invalidParameter('name');
  const group = await namespaceForNewProject(context, caller, request.namespace);
  if (
    overrides.visibility &&
    cappedVisibility(overrides.visibility, group.visibility) !== overrides.visibility
  ) {
    throw visibilityNotAllowed(overrides.visibility, group);
  }

  const existing = await findProjectByPath(db, group.id, request.path);
  const pathTaken = (): ApiError => new ApiError(400, { message: { path: ['has already been taken'] } });
  if (existing) {
    if (!request.overwrite) throw pathTaken();
    if ((await projectAccessLevel(db, caller, existing)) < AccessLevel.MAINTAINER) throw forbidden();
    const running = await findImport(db, existing.id);
    if (running && (running.status === 'scheduled' || running.status === 'started')) {
      throw new ApiError(400, { message: 'An import of this project is already in progress' });
    }
  }

  // The archive is written first and removed again if the project cannot be recorded: nothing half-written.
  const correlationId = randomBytes(8).toString('base64url');
  const archivePath = join('imports', `${correlationId}.tar.gz`);
  await mkdir(join(context.dataDir, 'imports'), { recursive: true });
  await writeFile(join(context.dataDir, archivePath), request.file);
  const now = nowIso();
  let projectId: number;
  try {
    projectId = await recordImportRequest(
      db,
      existing
        ? // Its name, like its other attributes, changes only when the import succeeds.
          { existingId: existing.id }
        : {
            newProject: {
              name,
              path: request.path,
              namespace_id: group.id,
              // The archive's attributes are applied by the job; until then the project is private.
              visibility: 'private',
              description: null,
              default_branch: 'main',
              archived: 0,
              repository_storage: context.storages.names[0] ?? 'default',
              creator_id: user.id,
              created_at: now,
              last_activity_at: now,
              repository_generation: 0,
            },
          },
      {
        status: 'scheduled',
        correlation_id: correlationId,
        import_error: null,
        archive_path: archivePath,
        override_params: JSON.stringify({ ...overrides, name }),
        updated_at: now,
      },
      now,
    );
  } catch (error) {
    await rm(join(context.dataDir, archivePath), { force: true });
    // Two imports racing for one path: the unique (namespace, path) constraint decides.
    if (isUniqueViolation(error)) throw pathTaken();
    throw error;
  }

  const project = await findProjectRow(db, projectId);
  // An empty repository until the import fills it, so repository reads answer as for any empty project.
  if (!existing)
    await initBareRepository(
      context.storages.pathFor(project.repository_storage, project.id),
      project.default_branch,
    );
  // The import as it is accepted (`scheduled`), read before its job is queued: once queued, the job may
  // start before a later read (on PostgreSQL, where the job's queries and the request's interleave).
  const accepted = await importStatusOf(context, project);
  const payload: ImportJobPayload = { projectId, correlationId };
  await context.jobs.enqueue(IMPORT_JOB, payload);
  return accepted;
}

/** GET /projects/:id/import. */
export async function projectImportStatus(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<ProjectImportStatus> {
  requireUser(caller);
  requireScope(caller, 'read_api');
  const { project } = await resolveProject(context.db, caller, projectId, AccessLevel.MAINTAINER);
  return importStatusOf(context, project);
}

/* ------------------------------------------------------------------------------------------------ */
/* The import job                                                                                    */
/* ------------------------------------------------------------------------------------------------ */

interface FailedRelation {
  exception_class: string;
  exception_message: string;
  source: string;
  relation_name: string;
}

/** Puts the freshly cloned repository in place of the project's (empty or overwritten) one. */
async function swapRepository(incoming: string, target: string, correlationId: string): Promise<void> {
  const replaced = `${target}.replaced-${correlationId}`;
  await rm(replaced, { recursive: true, force: true });
  try {
    await rename(target, replaced);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rename(incoming, target);
  await rm(replaced, { recursive: true, force: true });
}

/** The default branch: the wanted one if the bundle has it, else the bundle's HEAD, else its first branch. */
async function chooseDefaultBranch(repository: GitRepository, wanted: string): Promise<string> {
  const branches = (await repository.listBranches()).map((branch) => branch.name);
  if (branches.length === 0 || branches.includes(wanted)) return wanted;
  const head = await repository.defaultBranch();
  return head !== null && branches.includes(head) ? head : (branches[0] ?? wanted);
}

/**
 * Runs one import. Idempotent: a run interrupted by a restart starts again from the archive, which is only
 * removed once the import has finished or failed; a superseded import does nothing.
 */
export async function runProjectImport(context: ServerContext, payload: ImportJobPayload): Promise<void> {
  const { db } = context;
  const row = await findImport(db, payload.projectId);
  if (
    !row ||
    row.correlation_id !== payload.correlationId ||
    row.status === 'finished' ||
    row.status === 'failed'
  )
    return;
  const thisImport = (changes: Updateable<ProjectImportsTable>) =>
    updateImport(db, row.id, payload.correlationId, changes);
  const project = await findProject(db, String(payload.projectId));
  const workDir = join(context.dataDir, 'imports', `${payload.correlationId}.work`);
  const archive = row.archive_path ? join(context.dataDir, row.archive_path) : null;
  const target = project ? context.storages.pathFor(project.repository_storage, project.id) : '';
  const incoming = `${target}.import-${payload.correlationId}`;
  const cleanUp = async (): Promise<void> => {
    await rm(workDir, { recursive: true, force: true });
    if (archive) await rm(archive, { force: true });
    if (project) await rm(incoming, { recursive: true, force: true });
  };
  const fail = async (message: string): Promise<void> => {
    await thisImport({ status: 'failed', import_error: message, archive_path: null, updated_at: nowIso() });
    await cleanUp();
  };
  if (!project || !archive) return fail('The import file is no longer available');
  await thisImport({ status: 'started', updated_at: nowIso() });

  try {
    const contents = await readProjectArchive(archive, workDir);
    if (!contents.ok) return await fail(contents.error);
    const archived = contents.value.project;
    const overrides = JSON.parse(row.override_params) as ImportOverrides;
    const group = await findNamespace(db, project.namespace_id);

    await rm(incoming, { recursive: true, force: true });
    const wantedBranch = overrides.default_branch ?? archived.default_branch;
    let repository: GitRepository;
    if (contents.value.bundlePath) {
      try {
        repository = await GitRepository.cloneFromBundle(contents.value.bundlePath, incoming);
      } catch (error) {
        return await fail(
          `The repository bundle could not be restored: ${(error as Error).message.slice(0, 500)}`,
        );
      }
    } else {
      repository = await initBareRepository(incoming, wantedBranch);
    }
    const defaultBranch = await chooseDefaultBranch(repository, wantedBranch);
    await repository.setDefaultBranch(defaultBranch);

    const rules: ArchivedProtectedBranch[] = [];
    const failures: FailedRelation[] = [];
    for (const item of archived.protected_branches) {
      const parsed = parseProtectedBranch(item);
      if (!parsed.ok) {
        failures.push({
          exception_class: 'ValidationError',
          exception_message: parsed.error,
          source: 'restore_protected_branches',
          relation_name: 'protected_branches',
        });
      } else if (rules.some((rule) => rule.name === parsed.value.name)) {
        failures.push({
          exception_class: 'ValidationError',
          exception_message: `Name has already been taken: ${parsed.value.name}`,
          source: 'restore_protected_branches',
          relation_name: 'protected_branches',
        });
      } else {
        rules.push(parsed.value);
      }
    }

    await swapRepository(incoming, target, payload.correlationId);
    const now = nowIso();
    // The project's attributes, its protected branches (through their area), its failed relations and the
    // import's end are written together.
    await db.transaction().execute(async (trx) => {
      await applyImportedProject(trx, project.id, {
        name: overrides.name ?? project.name,
        description: overrides.description ?? archived.description,
        visibility: cappedVisibility(overrides.visibility ?? archived.visibility, group.visibility),
        default_branch: defaultBranch,
        last_activity_at: now,
      });
      await replaceProtectedBranches(
        trx,
        project.id,
        rules.map((rule) => ({
          name: rule.name,
          codeOwnerApprovalRequired: rule.code_owner_approval_required,
          allowForcePush: rule.allow_force_push,
          levels: PROTECTION_ACTIONS.flatMap((action) =>
            rule[`${action}_access_levels`].map((entry) => ({
              action,
              accessLevel: entry.access_level,
              userId: null,
              groupId: null,
            })),
          ),
        })),
        now,
      );
      await replaceImportFailures(
        trx,
        project.id,
        failures
          .slice(0, MAX_FAILED_RELATIONS)
          .map((failure) => ({ ...failure, project_id: project.id, created_at: now })),
      );
      await updateImport(trx, row.id, payload.correlationId, {
        status: 'finished',
        archive_path: null,
        updated_at: now,
      });
    });
    await cleanUp();
    await context.repositoryEvents.changed(db, project.id);
  } catch (error) {
    console.error(`import of project ${project.id} failed:`, error);
    await fail(`The import failed: ${(error as Error).message.slice(0, 500)}`);
  }
}
