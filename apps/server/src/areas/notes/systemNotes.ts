// System notes: what the server writes about changes to an object (GitLab's SystemNoteService), in the
// transaction of the change. Closing and reopening an issue, an epic or a merge request write "closed" and
// "reopened", merging a merge request "merged" (SystemNoteService.change_status); a merge request's new
// target branch "changed target branch from `a` to `b`" (SystemNoteService.change_branch). Label changes
// are no notes: the seeds keep label notes out of this API, and GitLab records them as resource label events
// (Issuable::CommonSystemNotesService#create_labels_note → ResourceEvents::ChangeLabelsService), which its
// notes API does not list (it reads `noteable.notes`); only its web UI merges them into the discussion as
// `added ~"label" label` lines.
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';
import { onEpicStateChange } from '../epics/index.js';
import { onIssueStateChange } from '../issues/index.js';
import { type MergeRequestChange, onMergeRequestWrite } from '../mergeRequests/index.js';
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

/** The system notes of a merge request write, in GitLab's order (the branch change before the status). */
function mergeRequestNoteBodies(change: MergeRequestChange): string[] {
  const bodies: string[] = [];
  const before = change.before?.target_branch;
  const after = change.mergeRequest.target_branch;
  if (before !== undefined && before !== after)
    bodies.push(`changed target branch from \`${before}\` to \`${after}\``);
  const status = MERGE_REQUEST_STATUS_NOTES[change.action];
  if (status) bodies.push(status);
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
