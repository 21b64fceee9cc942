// Reading and committing single repository files (document 1, section 4.1).
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { AccessLevel, resolveProject, resolveProjectForRepositoryRead } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import type { BlameRange, CommitFailureReason } from '../../core/git/repository.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { ApiError, badRequest, forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody, Schemas } from '../../core/http/types.js';
import { isAllowed, loadProtectionRules, matchingRules } from '../protectedBranches/index.js';

export type RepositoryFile = Schemas['RepositoryFile'];

export interface RawFile {
  file: RepositoryFile;
  content: Buffer;
}

/** Reads a file at a ref, with its metadata; 404 when the project, the ref or the file is unknown. */
export async function readRepositoryFile(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  filePath: string,
  ref: string,
): Promise<RawFile> {
  requireScope(caller, 'read_repository');
  const { project } = await resolveProjectForRepositoryRead(context.db, caller, projectId);
  const found = await repositoryOf(context, project).readFile(ref, filePath);
  if (!found) throw notFound('File');
  const file: RepositoryFile = {
    file_name: posix.basename(filePath),
    file_path: filePath,
    size: found.size,
    encoding: 'base64',
    content: found.content.toString('base64'),
    content_sha256: createHash('sha256').update(found.content).digest('hex'),
    ref,
    blob_id: found.blobId,
    commit_id: found.commitId,
    last_commit_id: found.lastCommitId,
    execute_filemode: found.mode === '100755',
  };
  return { file, content: found.content };
}

export async function blameRepositoryFile(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  filePath: string,
  ref: string,
): Promise<{ file: RepositoryFile; ranges: BlameRange[] }> {
  const { file } = await readRepositoryFile(context, caller, projectId, filePath, ref);
  const { project } = await resolveProjectForRepositoryRead(context.db, caller, projectId);
  const ranges = await repositoryOf(context, project).blame(ref, filePath);
  if (!ranges) throw notFound('File');
  return { file, ranges };
}

type FileWriteRequest =
  | RequestBody<'createRepositoryFile'>
  | RequestBody<'updateRepositoryFile'>
  | RequestBody<'deleteRepositoryFile'>;

/** The 400 of a failed commit: the seed's three causes, and the existence checks around them, each said plainly. */
const FAILURE_MESSAGES: Record<CommitFailureReason, string> = {
  path_traversal: 'The file path must not contain a directory traversal (/../)',
  invalid_path: 'The file path is invalid',
  invalid_branch: 'The branch name is invalid',
  empty_commit: 'You are attempting to update a file with content identical to its current content',
  branch_moved: 'You are attempting to update a file that has changed since you started editing it',
  file_exists: 'A file with this name already exists',
  file_missing: 'A file with this name does not exist',
  branch_missing: 'You can only create or edit files when you are on a branch',
};

/**
 * What git cannot write into a commit, as a 400 naming the field (git would fail, and we would answer
 * 500): a NUL in the message (newlines and tabs are fine), control characters in an identity, or a name
 * made only of the characters git trims from identities (`.`, `,`, `<`, spaces…), which leaves it empty.
 */
function checkCommitText(body: FileWriteRequest): void {
  if (body.commit_message.includes('\0'))
    throw invalidParameter('commit_message', 'it must not contain NUL bytes');
  for (const field of ['author_name', 'author_email'] as const) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
    if (/[\x00-\x1f\x7f]/.test(body[field] ?? ''))
      throw invalidParameter(field, 'it must not contain control characters');
  }
  if (body.author_name !== undefined && /^[\x20.,:;<>"\\']*$/.test(body.author_name))
    throw invalidParameter('author_name', 'it must contain more than spaces and punctuation');
}

/** Creates, updates or deletes one file in one commit, after the permission and branch-protection checks. */
export async function changeRepositoryFile(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  filePath: string,
  action: 'create' | 'update' | 'delete',
  body: FileWriteRequest,
): Promise<void> {
  requireScope(caller, 'api');
  const user = requireUser(caller);
  const { project, accessLevel } = await resolveProject(context.db, caller, projectId, AccessLevel.DEVELOPER);
  if (project.archived === 1) throw forbidden('403 Forbidden - The project is archived and read-only');
  checkCommitText(body);
  const rules = matchingRules(await loadProtectionRules(context.db, project.id), body.branch);
  if (!(await isAllowed(context.db, caller, accessLevel, rules, 'push'))) {
    throw forbidden('403 Forbidden - You are not allowed to push into this branch');
  }
  let content: Buffer | undefined;
  if ('content' in body) {
    if (body.encoding === 'base64') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body.content.replace(/\s/g, '')))
        throw badRequest('content is not valid Base64');
      content = Buffer.from(body.content, 'base64');
    } else {
      content = Buffer.from(body.content, 'utf8');
    }
  }
  const result = await repositoryOf(context, project).commitFileChange({
    branch: body.branch,
    startBranch: body.start_branch,
    action,
    filePath,
    content,
    authorName: body.author_name ?? user.name,
    authorEmail: body.author_email ?? user.email,
    committerName: user.name,
    committerEmail: user.email,
    message: body.commit_message,
    expectedLastCommitId: 'last_commit_id' in body ? body.last_commit_id : undefined,
    executable: 'execute_filemode' in body ? (body.execute_filemode ?? undefined) : undefined,
  });
  if (!result.ok) throw new ApiError(400, { message: FAILURE_MESSAGES[result.reason] });
  // On an existing branch the push brings exactly the new commit; a new branch's commits are counted
  // against the default branch, which its consumers ask git for.
  const commits = result.commit && result.before !== ZERO_SHA ? [result.commit] : undefined;
  await context.repositoryEvents.changed(context.db, project.id, [
    {
      ref: `refs/heads/${body.branch}`,
      before: result.before,
      after: result.commitId,
      userId: user.id,
      commits,
    },
  ]);
}
