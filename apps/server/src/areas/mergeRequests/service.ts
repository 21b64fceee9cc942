// Project merge requests (GitLab v4's lib/api/merge_requests.rb and MergeRequestsFinder; the seeds leave them
// "not shown"): lists and reads (writes.ts makes and changes them, merge.ts merges them). Reading them needs read access
// to the project's code (GitLab's read_merge_request): anyone who sees a public or internal project,
// Reporters and above in a private one; a disabled merge requests feature is a 403 (authorize!).

import {
  AccessLevel,
  type ProjectAccess,
  projectFullPath,
  resolveProject,
  resolveProjectForRepositoryRead,
} from '../../core/access/access.js';
import { type Caller, requireScope } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { forbidden, notFound } from '../../core/http/errors.js';
import type { Page, PageWindow } from '../../core/store/paging.js';
import { findHeadPipelineRecord, presentPipeline } from '../pipelines/index.js';
import { isAllowed, loadProtectionRules, matchingRules } from '../protectedBranches/index.js';
import { releaseStaleLock } from './locks.js';
import { recheckMergeRequest } from './mergeability.js';
import { type MergeRequest, presentMergeRequests, withDetails } from './present.js';
import {
  findMergeRequest,
  hasEarlierMergeRequest,
  listMergeRequests,
  type MergeRequestFilters,
  type MergeRequestOrder,
  type MergeRequestRow,
} from './store.js';

async function projectForRead(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
): Promise<ProjectAccess> {
  requireScope(caller, 'read_api');
  const access = await resolveProjectForRepositoryRead(context.db, caller, idOrPath);
  if (access.project.merge_requests_enabled !== 1) throw forbidden();
  return access;
}

function settingOf(access: ProjectAccess, origin: string) {
  return { fullPath: projectFullPath(access), origin };
}

export async function listProjectMergeRequests(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  filters: MergeRequestFilters,
  order: MergeRequestOrder,
  window: PageWindow,
  origin: string,
): Promise<Page<MergeRequest>> {
  const access = await projectForRead(context, caller, idOrPath);
  const page = await listMergeRequests(context.db, access.project.id, filters, order, window);
  return {
    items: await presentMergeRequests(context.db, page.items, settingOf(access, origin)),
    total: page.total,
  };
}

/** Whether the caller may merge it: an open merge request, and the caller may merge into its target. */
async function canMerge(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  row: MergeRequestRow,
): Promise<boolean> {
  return row.state === 'opened' && (await mayMergeInto(context, caller, access, row.target_branch));
}

/**
 * Whether the caller may merge into `branch` (GitLab's can_be_merged_by?: push access to the project, and
 * on a protected branch one of its merge access levels): Developers and above of a project that is not
 * archived, as the branch's protection allows.
 */
export async function mayMergeInto(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  branch: string,
): Promise<boolean> {
  if (access.project.archived === 1 || access.accessLevel < AccessLevel.DEVELOPER) return false;
  const rules = matchingRules(await loadProtectionRules(context.db, access.project.id), branch);
  return isAllowed(context.db, caller, access.accessLevel, rules, 'merge');
}

export async function getProjectMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
  origin: string,
): Promise<MergeRequest> {
  const access = await projectForRead(context, caller, idOrPath);
  const row = Number.isSafeInteger(iid)
    ? await findMergeRequest(context.db, access.project.id, iid)
    : undefined;
  if (!row) throw notFound('Merge Request');
  const released = await releaseStaleLock(context, access.project, row);
  const checked = await recheckMergeRequest(context, access.project, released);
  return presentFullMergeRequest(context, caller, access, checked, origin);
}

/** A merge request as single reads and writes answer it: every field, those about the caller too. */
export async function presentFullMergeRequest(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  row: MergeRequestRow,
  origin: string,
): Promise<MergeRequest> {
  const [basic] = await presentMergeRequests(context.db, [row], settingOf(access, origin));
  if (!basic) throw notFound('Merge Request');
  const userId = caller.user?.id;
  // Without subscriptions of their own, the participants are subscribed: author, assignees and reviewers.
  const subscribed =
    userId !== undefined &&
    (basic.author.id === userId ||
      basic.assignees.some((user) => user.id === userId) ||
      basic.reviewers.some((user) => user.id === userId));
  const headPipeline =
    row.sha === null
      ? undefined
      : await findHeadPipelineRecord(context.db, access.project.id, row.source_branch, row.sha);
  return withDetails(basic, row, {
    subscribed,
    canMerge: await canMerge(context, caller, access, row),
    firstContribution: !(await hasEarlierMergeRequest(context.db, row)),
    headPipeline: headPipeline ? presentPipeline(headPipeline, access, origin) : null,
    projectUrl: `${origin}/${projectFullPath(access)}`,
  });
}

/**
 * The merge request the caller may read, with the project (for the notes area). Unlike the merge request
 * reads, which answer 403 for a disabled feature or a guest of a private project, every case the caller may
 * not read is a 404 here, as GitLab's notes find their object (NotesFinder).
 */
export async function findReadableMergeRequest(
  context: ServerContext,
  caller: Caller,
  idOrPath: string,
  iid: number,
): Promise<{ access: ProjectAccess; mergeRequest: MergeRequestRow }> {
  const access = await resolveProject(context.db, caller, idOrPath);
  const readable =
    access.project.merge_requests_enabled === 1 &&
    (access.project.visibility !== 'private' || access.accessLevel >= AccessLevel.REPORTER);
  const row =
    readable && Number.isSafeInteger(iid)
      ? await findMergeRequest(context.db, access.project.id, iid)
      : undefined;
  if (!row) throw notFound('Merge Request');
  return { access, mergeRequest: row };
}
