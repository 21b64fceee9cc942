// System notes: what the server writes about changes to an object (GitLab's SystemNoteService), in the
// transaction of the change. Closing and reopening an issue, an epic or a merge request write "closed" and
// "reopened", merging a merge request "merged" (SystemNoteService.change_status); a merge request's new
// target branch "changed target branch from `a` to `b`" (SystemNoteService.change_branch); its automatic
// merge "enabled an automatic merge when the pipeline for <sha> succeeds", "aborted the automatic merge
// because <reason>" and "canceled the automatic merge" (SystemNotes::MergeRequestsService); a push to its
// source branch "added N commits" with the commits listed (SystemNotes::CommitService#add_commits). Label changes
// are no notes: the seeds keep label notes out of this API, and GitLab records them as resource label events
// (Issuable::CommonSystemNotesService#create_labels_note → ResourceEvents::ChangeLabelsService), which its
// notes API does not list (it reads `noteable.notes`); only its web UI merges them into the discussion as
// `added ~"label" label` lines.
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';
import { onEpicStateChange } from '../epics/index.js';
import { onIssueStateChange } from '../issues/index.js';
import {
  type AutoMergeChange,
  type MergeRequestChange,
  onMergeRequestWrite,
  type PushedCommit,
  type PushedCommits,
} from '../mergeRequests/index.js';
import { insertNote } from './store.js';

interface SystemNote {
  noteableType: 'Issue' | 'Epic' | 'MergeRequest';
  noteableId: number;
  projectId: number | null;
  groupId: number | null;
  authorId: number;
  body: string;
  at: string;
}

export async function writeSystemNote(db: Db, note: SystemNote): Promise<void> {
  await insertNote(db, {
    noteable_type: note.noteableType,
    noteable_id: note.noteableId,
    project_id: note.projectId,
    group_id: note.groupId,
    author_id: note.authorId,
    body: note.body,
    system: 1,
    confidential: 0,
    created_at: note.at,
    updated_at: note.at,
  });
}

const MERGE_REQUEST_STATUS_NOTES: Partial<Record<MergeRequestChange['action'], string>> = {
  close: 'closed',
  reopen: 'reopened',
  merge: 'merged',
};

function autoMergeNote(change: AutoMergeChange): string {
  if (change.action === 'enabled')
    return `enabled an automatic merge when the pipeline for ${change.sha} succeeds`;
  if (change.action === 'aborted') return `aborted the automatic merge because ${change.reason}`;
  return 'canceled the automatic merge';
}

/** Rails' `content_tag` escaping of a commit title in the list. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const shortId = (sha: string) => sha.slice(0, 8);
const commitsText = (count: number) => `${count} commit${count === 1 ? '' : 's'}`;

/**
 * GitLab's note of a push to the source branch: "added N commits", the list (the commits that were on the
 * target branch already in one line, then each new one), and the link comparing with the previous version.
 */
function pushedCommitsNote(pushed: PushedCommits, targetBranch: string): string {
  const items: string[] = [];
  const { existing } = pushed;
  const first = existing[0];
  const last = existing[existing.length - 1];
  if (first && last) {
    const ids = existing.length === 1 ? shortId(first.id) : `${shortId(pushed.before)}...${shortId(last.id)}`;
    items.push(
      `<li>${ids} - ${commitsText(existing.length)} from branch <code>${escapeHtml(targetBranch)}</code></li>`,
    );
  }
  items.push(
    ...pushed.added.map(
      (commit: PushedCommit) => `<li>${shortId(commit.id)} - ${escapeHtml(commit.title)}</li>`,
    ),
  );
  return [
    `added ${commitsText(pushed.total)}`,
    `<ul>${items.join('')}</ul>`,
    `[Compare with previous version](${pushed.path}/diffs?start_sha=${pushed.before})`,
  ].join('\n\n');
}

/**
 * The system notes of a merge request write, in GitLab's order: the branch change, the status, the automatic
 * merge (aborted after "closed"; before the commits of the push that aborted it), the pushed commits.
 */
function mergeRequestNoteBodies(change: MergeRequestChange): string[] {
  const bodies: string[] = [];
  const before = change.before?.target_branch;
  const after = change.mergeRequest.target_branch;
  if (before !== undefined && before !== after)
    bodies.push(`changed target branch from \`${before}\` to \`${after}\``);
  const status = MERGE_REQUEST_STATUS_NOTES[change.action];
  if (status) bodies.push(status);
  if (change.autoMerge) bodies.push(autoMergeNote(change.autoMerge));
  if (change.pushed) bodies.push(pushedCommitsNote(change.pushed, after));
  return bodies;
}

/** Subscribes to the changes that write system notes. */
export function registerSystemNotes(context: ServerContext): void {
  onIssueStateChange(context, (trx, change) =>
    writeSystemNote(trx, {
      noteableType: 'Issue',
      noteableId: change.issueId,
      projectId: change.projectId,
      groupId: null,
      authorId: change.userId,
      body: change.state === 'closed' ? 'closed' : 'reopened',
      at: change.at,
    }),
  );
  onMergeRequestWrite(context, async (trx, change) => {
    for (const body of mergeRequestNoteBodies(change))
      await writeSystemNote(trx, {
        noteableType: 'MergeRequest',
        noteableId: change.mergeRequest.id,
        projectId: change.mergeRequest.project_id,
        groupId: null,
        authorId: change.userId,
        body,
        at: change.at,
      });
  });
  onEpicStateChange(context, (change) =>
    writeSystemNote(change.db, {
      noteableType: 'Epic',
      noteableId: change.epic.id,
      projectId: null,
      groupId: change.epic.group_id,
      authorId: change.userId,
      body: change.state === 'closed' ? 'closed' : 'reopened',
      at: change.at,
    }),
  );
}
