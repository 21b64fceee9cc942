// System notes: what the server writes about changes to an object (GitLab's SystemNoteService), in the
// transaction of the change. Closing and reopening an issue or an epic write "closed" and "reopened"
// (SystemNoteService.change_status). Label changes are no notes: the seeds keep label notes out of this API,
// and GitLab records them as resource label events (Issuable::CommonSystemNotesService#create_labels_note →
// ResourceEvents::ChangeLabelsService), which its notes API does not list (it reads `noteable.notes`); only
// its web UI merges them into the discussion as `added ~"label" label` lines.
import type { ServerContext } from '../../core/context.js';
import type { Db } from '../../core/store/database.js';
import { onEpicStateChange } from '../epics/index.js';
import { onIssueStateChange } from '../issues/index.js';
import { insertNote } from './store.js';

interface SystemNote {
  noteableType: 'Issue' | 'Epic';
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
