// Branches of a project's repository (document 1, section 4.2).

import {
  AccessLevel,
  type ProjectAccess,
  projectFullPath,
  resolveProjectForRepositoryRead,
  resolveProjectForRepositoryWrite,
} from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import type { BranchInfo } from '../../core/git/repository.js';
import { type RefChange, ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import { type Page, type PageWindow, pageOfList } from '../../core/store/paging.js';
import {
  developersCan,
  isAllowed,
  loadProtectionRules,
  matchingRules,
  type ProtectionRule,
} from '../protectedBranches/index.js';

export type Branch = Schemas['Branch'];

/** `^term` matches the beginning, `term$` the end, anything else a part of the name (case-insensitive). */
export function branchNameMatches(name: string, search: string): boolean {
  const lower = name.toLowerCase();
  let term = search.toLowerCase();
  const anchoredStart = term.startsWith('^');
  const anchoredEnd = term.endsWith('$');
  if (anchoredStart) term = term.slice(1);
  if (anchoredEnd) term = term.slice(0, -1);
  if (anchoredStart && anchoredEnd) return lower === term;
  if (anchoredStart) return lower.startsWith(term);
  if (anchoredEnd) return lower.endsWith(term);
  return lower.includes(term);
}

interface BranchView {
  access: ProjectAccess;
  rules: ProtectionRule[];
  merged: Set<string>;
  origin: string;
  caller: Caller;
  context: ServerContext;
}

/**
 * The branches as the API shows them. can_push is the caller's level on an unprotected branch; only a
 * protected one asks isAllowed (which may look up group memberships), so a page of unprotected branches is
 * presented without a promise per branch.
 */
async function presentBranches(view: BranchView, branches: readonly BranchInfo[]): Promise<Branch[]> {
  const { project } = view.access;
  const mayPush = view.caller.user !== null && view.access.accessLevel >= AccessLevel.DEVELOPER;
  const treeUrl = `${view.origin}/${projectFullPath(view.access)}/-/tree/`;
  const ruleSets = branches.map((branch) => matchingRules(view.rules, branch.name));
  const canPush = ruleSets.some((rules) => rules.length > 0)
    ? await Promise.all(
        ruleSets.map(
          async (rules) =>
            mayPush &&
            (rules.length === 0 ||
              (await isAllowed(view.context.db, view.caller, view.access.accessLevel, rules, 'push'))),
        ),
      )
    : ruleSets.map(() => mayPush);
  return branches.map((branch, index) => {
    const rules = ruleSets[index] ?? [];
    return {
      name: branch.name,
      merged: view.merged.has(branch.name),
      protected: rules.length > 0,
      default: branch.name === project.default_branch,
      developers_can_push: developersCan(rules, 'push'),
      developers_can_merge: developersCan(rules, 'merge'),
      can_push: canPush[index] ?? false,
      web_url: `${treeUrl}${branch.name}`,
      commit: branch.commit,
    };
  });
}

/** One branch as the API shows it (presentBranches). */
async function presentBranch(view: BranchView, branch: BranchInfo): Promise<Branch> {
  const [presented] = await presentBranches(view, [branch]);
  if (!presented) throw new Error(`branch ${branch.name} was not presented`);
  return presented;
}

/** What presenting `names` needs: their merged status (for these branches only) and the project's rules. */
async function branchView(
  context: ServerContext,
  caller: Caller,
  access: ProjectAccess,
  origin: string,
  names: readonly string[],
): Promise<BranchView> {
  const repo = repositoryOf(context, access.project);
  // The set is shared with the read cache, so it is only read.
  const [merged, rules] = await Promise.all([
    repo.mergedAmong(access.project.default_branch, names),
    loadProtectionRules(context.db, access.project.id),
  ]);
  return { access, rules, merged, origin, caller, context };
}

/**
 * One page of the branches whose name matches `search`, sorted by name. Only names are listed for the
 * whole repository (and cached until it changes); commits, merged status and presentation are for the
 * page's branches only.
 */
export async function listBranches(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  search: string | undefined,
  origin: string,
  window: PageWindow,
): Promise<Page<Branch>> {
  requireScope(caller, 'read_repository');
  const access = await resolveProjectForRepositoryRead(context.db, caller, projectId);
  const repo = repositoryOf(context, access.project);
  const names = await repo.branchNames();
  const matching =
    search === undefined || search === '' ? names : names.filter((name) => branchNameMatches(name, search));
  const page = pageOfList(matching, window);
  const [branches, view] = await Promise.all([
    repo.branchesNamed(page.items),
    branchView(context, caller, access, origin, page.items),
  ]);
  return { items: await presentBranches(view, branches), total: page.total };
}

export async function getBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
  origin: string,
): Promise<Branch> {
  requireScope(caller, 'read_repository');
  const access = await resolveProjectForRepositoryRead(context.db, caller, projectId);
  const branch = await repositoryOf(context, access.project).getBranch(name);
  if (!branch) throw notFound('Branch');
  return presentBranch(await branchView(context, caller, access, origin, [name]), branch);
}

export async function createBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
  ref: string,
  origin: string,
): Promise<Branch> {
  // A write needs a token (401 without one, even for a project the caller cannot see); archived: 403.
  const access = await resolveProjectForRepositoryWrite(context.db, caller, projectId);
  const user = requireUser(caller);
  const repo = repositoryOf(context, access.project);
  if ((await repo.listBranches()).length === 0)
    await createDefaultBranch(context, repo, access.project, {
      id: user.id,
      name: user.name,
      email: user.email,
    });
  const result = await repo.createBranch(name, ref);
  if (!result.ok) {
    if (result.reason === 'invalid_name') throw badRequest('Branch name is invalid');
    if (result.reason === 'exists') throw badRequest('Branch already exists');
    throw badRequest('Invalid reference name');
  }
  await context.repositoryEvents.changed(context.db, access.project.id, [
    { ref: `refs/heads/${name}`, before: ZERO_SHA, after: result.branch.commit.id, userId: user.id },
  ]);
  return presentBranch(await branchView(context, caller, access, origin, [name]), result.branch);
}

/**
 * In an empty repository, the default branch first, as GitLab's `Branches::CreateService` makes it: an empty
 * `README.md` committed by the caller with the message `Add README.md`. A branch from the default branch
 * (the usual `ref`) can then be made. A concurrent request that made it first leaves nothing to do.
 */
async function createDefaultBranch(
  context: ServerContext,
  repo: ReturnType<typeof repositoryOf>,
  project: { id: number; default_branch: string },
  user: { id: number; name: string; email: string },
): Promise<void> {
  const commit = await repo.commitFileChange({
    branch: project.default_branch,
    action: 'create',
    filePath: 'README.md',
    content: Buffer.alloc(0),
    authorName: user.name,
    authorEmail: user.email,
    committerName: user.name,
    committerEmail: user.email,
    message: 'Add README.md',
  });
  if (!commit.ok) return;
  await context.repositoryEvents.changed(context.db, project.id, [
    {
      ref: `refs/heads/${project.default_branch}`,
      before: ZERO_SHA,
      after: commit.commitId,
      userId: user.id,
    },
  ]);
}

export async function deleteBranch(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  name: string,
): Promise<void> {
  // A write needs a token (401 without one, even for a project the caller cannot see); archived: 403.
  const access = await resolveProjectForRepositoryWrite(context.db, caller, projectId);
  const user = requireUser(caller);
  const repo = repositoryOf(context, access.project);
  const branch = await repo.getBranch(name);
  if (!branch) throw notFound('Branch');
  if (name === access.project.default_branch)
    throw badRequest('The default branch of a project cannot be deleted.');
  const rules = matchingRules(await loadProtectionRules(context.db, access.project.id), name);
  if (rules.length > 0 && access.accessLevel < AccessLevel.MAINTAINER) {
    throw badRequest('You can only delete protected branches if you are a maintainer or owner.');
  }
  const deleted = await repo.deleteBranch(name, branch.commit.id);
  if (!deleted.ok) throw badRequest('The branch was updated while it was being deleted; try again.');
  await context.repositoryEvents.changed(context.db, access.project.id, [
    { ref: `refs/heads/${name}`, before: branch.commit.id, after: ZERO_SHA, userId: user.id },
  ]);
}

/** Deletes every branch merged into the default branch, except the default branch and protected branches. */
export async function deleteMergedBranches(
  context: ServerContext,
  caller: Caller,
  projectId: string,
): Promise<string[]> {
  // A write needs a token (401 without one, even for a project the caller cannot see); archived: 403.
  const access = await resolveProjectForRepositoryWrite(context.db, caller, projectId);
  const user = requireUser(caller);
  const repo = repositoryOf(context, access.project);
  const rules = await loadProtectionRules(context.db, access.project.id);
  const candidates = [...(await repo.mergedBranches(access.project.default_branch))].filter(
    (name) => name !== access.project.default_branch && matchingRules(rules, name).length === 0,
  );
  const deleted: RefChange[] = [];
  for (const name of candidates) {
    const branch = await repo.getBranch(name);
    if (branch && (await repo.deleteBranch(name, branch.commit.id)).ok)
      deleted.push({ ref: `refs/heads/${name}`, before: branch.commit.id, after: ZERO_SHA, userId: user.id });
  }
  if (deleted.length > 0) await context.repositoryEvents.changed(context.db, access.project.id, deleted);
  return deleted.map((change) => change.ref.slice('refs/heads/'.length));
}
