// Project export (document 1, section 4.7): the request, the status, the download, and the export job.
//
// States (the seed's): no row = `none`; a request makes it `queued`, or `regeneration_in_progress` while an
// earlier archive is downloadable (it stays downloadable until the new one replaces it). The job moves
// `queued` to `started`, builds the archive, puts it in place, and ends `finished` — or, when an upload was
// requested, stays `started` through the upload (the seed counts follow-ups as part of `started`) and ends
// `finished` after it. An upload that still fails after UPLOAD_RETRY_DELAYS_MS.length retries leaves the
// export `finished` with its archive downloadable, as GitLab does (the seed has no failed export state); the
// error is kept in the export row and logged.
import { openAsBlob } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { Updateable } from 'kysely';
import {
  AccessLevel,
  findProject,
  groupChain,
  type ProjectRow,
  resolveProjectForSignedIn,
} from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import { projectIdentity } from '../../core/access/projectIdentity.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { maskCredentials } from '../../core/git/repository.js';
import { ApiError, invalidParameter } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import type { ProjectExportsTable } from '../../core/store/tables.js';
import { loadProtectionRules, type ProtectionRule } from '../protectedBranches/index.js';
import {
  type ArchivedProtectedBranch,
  type PROTECTION_ACTIONS,
  type Visibility,
  writeProjectArchive,
} from './archive.js';
import { findExport, requestExport, updateExportRequest } from './store.js';

export const EXPORT_JOB = 'project_export';

export interface ExportJobPayload {
  projectId: number;
  /** The request this job serves; a newer request supersedes it. */
  generation: number;
  /** Upload attempts are counted from 1. */
  attempt: number;
}

export type ProjectExportStatus = Schemas['ProjectExportStatus'];
type ExportState = ProjectExportStatus['export_status'];

/** Delays before the 2nd and 3rd upload attempts. */
export const UPLOAD_RETRY_DELAYS_MS = [1_000, 2_000];
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

const exportsRoot = (context: ServerContext, projectId: number): string =>
  join(context.dataDir, 'exports', String(projectId));

/** Archives live in one directory per request: `exports/<project>/<generation>/<name>`. */
function generationOf(filePath: string): number {
  return Number(basename(dirname(filePath)));
}

function parseUploadUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.toString();
  } catch {
    // reported below
  }
  throw invalidParameter('upload[url]');
}

/** POST /projects/:id/export: records the request and queues the job. */
export async function scheduleProjectExport(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  request: RequestBody<'scheduleProjectExport'> | undefined,
): Promise<void> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'api',
    AccessLevel.MAINTAINER,
  );
  const upload = request?.upload;
  const uploadUrl = upload ? parseUploadUrl(upload.url) : null;
  const now = nowIso();
  const generation = await requestExport(
    context.db,
    project.id,
    (current) => ({
      // A downloadable archive stays downloadable while the new one is made.
      status: current?.file_path ? 'regeneration_in_progress' : 'queued',
      description: request?.description ?? null,
      upload_url: uploadUrl,
      upload_http_method: upload ? (upload.http_method ?? 'PUT') : null,
      error: null,
      updated_at: now,
    }),
    now,
  );
  const payload: ExportJobPayload = { projectId: project.id, generation, attempt: 1 };
  await context.jobs.enqueue(EXPORT_JOB, payload);
}

/** GET /projects/:id/export. */
export async function projectExportStatus(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  origin: string,
): Promise<ProjectExportStatus> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  const row = await findExport(context.db, project.id);
  const identity = await projectIdentity(context.db, project);
  const exportStatus = (row?.status ?? 'none') as ExportState;
  if (exportStatus !== 'finished') return { ...identity, export_status: exportStatus };
  return {
    ...identity,
    export_status: exportStatus,
    _links: {
      api_url: `${origin}/api/v4/projects/${project.id}/export/download`,
      web_url: `${origin}/${identity.path_with_namespace}/download_export`,
    },
  };
}

export interface ExportDownload {
  file: string;
  filename: string;
}

/** GET /projects/:id/export/download: the current archive (also while a regeneration is in progress). */
export async function projectExportDownload(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<ExportDownload> {
  const { project } = await resolveProjectForSignedIn(
    context.db,
    caller,
    projectId,
    'read_api',
    AccessLevel.MAINTAINER,
  );
  const row = await findExport(context.db, project.id);
  const noArchive = new ApiError(404, { message: '404 Not found or has expired' });
  if (!row?.file_path) throw noArchive;
  const file = join(context.dataDir, row.file_path);
  try {
    await stat(file);
  } catch {
    throw noArchive;
  }
  return { file, filename: basename(file) };
}

/* ------------------------------------------------------------------------------------------------ */
/* The export job                                                                                    */
/* ------------------------------------------------------------------------------------------------ */

/** Only role levels travel; an action granted to users or groups alone is archived as "no one" (0). */
export function archivedRule(rule: ProtectionRule): ArchivedProtectedBranch {
  const levelsFor = (action: (typeof PROTECTION_ACTIONS)[number]) => {
    const levels = rule.levels
      .filter((l) => l.action === action && l.accessLevel !== null)
      .map((l) => ({ access_level: l.accessLevel ?? 0 }));
    return levels.length > 0
      ? levels
      : [{ access_level: action === 'unprotect' ? AccessLevel.MAINTAINER : AccessLevel.NO_ACCESS }];
  };
  return {
    name: rule.name,
    code_owner_approval_required: rule.codeOwnerApprovalRequired,
    allow_force_push: rule.allowForcePush,
    push_access_levels: levelsFor('push'),
    merge_access_levels: levelsFor('merge'),
    unprotect_access_levels: levelsFor('unprotect'),
  };
}

/** `2026-01-15_10-00-00-000_acme_website_export.tar.gz`, GitLab's naming. */
async function archiveName(context: ServerContext, project: ProjectRow): Promise<string> {
  const stamp = nowIso()
    .replace(/\.(\d{3})Z$/, '-$1')
    .replace('T', '_')
    .replace(/:/g, '-');
  const namespacePath = (await groupChain(context.db, project.namespace_id))[0]?.full_path ?? '';
  return `${stamp}_${`${namespacePath}/${project.path}`.replace(/\//g, '_')}_export.tar.gz`;
}

async function upload(file: string, url: string, method: string): Promise<void> {
  const response = await fetch(url, {
    method,
    body: await openAsBlob(file),
    headers: { 'Content-Type': 'application/gzip' },
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
}

/**
 * Runs one export request. Idempotent: a run interrupted by a restart starts again from the row's state
 * (an archive already in place for this request is not rebuilt), and a superseded request does nothing.
 */
export async function runProjectExport(context: ServerContext, payload: ExportJobPayload): Promise<void> {
  const { db } = context;
  const row = await findExport(db, payload.projectId);
  if (!row || row.generation !== payload.generation || row.status === 'finished' || row.status === 'none')
    return;
  const project = await findProject(db, String(payload.projectId));
  if (!project) return;
  const thisRequest = (changes: Updateable<ProjectExportsTable>) =>
    updateExportRequest(db, payload.projectId, payload.generation, changes);
  let status = row.status;
  let filePath = row.file_path;
  try {
    if (status === 'queued') {
      status = 'started';
      await thisRequest({ status, updated_at: nowIso() });
    }
    if (filePath === null || generationOf(filePath) !== payload.generation) {
      const dir = join(exportsRoot(context, project.id), String(payload.generation));
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const target = join(dir, await archiveName(context, project));
      const rules = await loadProtectionRules(db, project.id);
      await writeProjectArchive(
        repositoryOf(context, project),
        {
          name: project.name,
          path: project.path,
          description: row.description ?? project.description,
          visibility: project.visibility as Visibility,
          default_branch: project.default_branch,
          protected_branches: rules.map(archivedRule),
        },
        target,
      );
      // The new archive replaces the old one in one step; a newer request meanwhile makes this one moot.
      status = row.upload_url ? 'started' : 'finished';
      filePath = relative(context.dataDir, target);
      const swapped = await thisRequest({ status, file_path: filePath, updated_at: nowIso() });
      if (!swapped) {
        await rm(dir, { recursive: true, force: true });
        return;
      }
      await removeOlderArchives(context, project.id, payload.generation);
    }
    if (row.upload_url && status !== 'finished') {
      await uploadOrRetry(
        context,
        payload,
        row.upload_url,
        row.upload_http_method ?? 'PUT',
        join(context.dataDir, filePath),
      );
    }
  } catch (error) {
    // No failed state exists: the newest complete archive (if any) stays the export, and the error is kept.
    const message = `export failed: ${(error as Error).message}`;
    console.error(`project ${project.id}: ${message}`);
    await thisRequest({
      status: filePath ? 'finished' : 'none',
      file_path: filePath,
      error: message,
      updated_at: nowIso(),
    });
  }
}

async function uploadOrRetry(
  context: ServerContext,
  payload: ExportJobPayload,
  url: string,
  method: string,
  file: string,
): Promise<void> {
  const thisRequest = (changes: Updateable<ProjectExportsTable>) =>
    updateExportRequest(context.db, payload.projectId, payload.generation, changes);
  try {
    await upload(file, url, method);
    await thisRequest({ status: 'finished', error: null, updated_at: nowIso() });
  } catch (error) {
    const message = maskCredentials(
      `upload to ${url} failed (attempt ${payload.attempt}): ${(error as Error).message}`,
      url,
    );
    const delayMs = UPLOAD_RETRY_DELAYS_MS[payload.attempt - 1];
    if (delayMs !== undefined) {
      await thisRequest({ error: message, updated_at: nowIso() });
      const retry: ExportJobPayload = { ...payload, attempt: payload.attempt + 1 };
      await context.jobs.enqueue(EXPORT_JOB, retry, { delayMs });
      return;
    }
    console.warn(`project ${payload.projectId}: ${message}; the archive stays downloadable`);
    await thisRequest({ status: 'finished', error: message, updated_at: nowIso() });
  }
}

/** Removes the archives of earlier requests (a crash between the swap and this cleanup leaves them behind). */
async function removeOlderArchives(
  context: ServerContext,
  projectId: number,
  generation: number,
): Promise<void> {
  const root = exportsRoot(context, projectId);
  for (const entry of await readdir(root)) {
    const entryGeneration = Number(entry);
    if (Number.isInteger(entryGeneration) && entryGeneration < generation)
      await rm(join(root, entry), { recursive: true, force: true });
  }
}
