// The notes of a fixtures file's issues and merge requests: for a closed issue first the `closed` system
// note the server would have written, then the file's notes.
import type { AreaFixtures } from '../../core/area.js';
import { daysBefore, issuableKey } from '../../core/store/fixtures.js';
import type { FixtureNote } from '../../core/store/fixturesFile.js';
import { insertNote } from './store.js';

interface NoteToLoad {
  body: string;
  author: string;
  system: boolean;
  internal: boolean;
  at: string;
}

function fileNotes(notes: readonly FixtureNote[] | undefined): NoteToLoad[] {
  return (notes ?? []).map((note) => ({
    body: note.body,
    author: note.author,
    system: false,
    internal: note.internal ?? false,
    at: daysBefore(note.created_days_ago),
  }));
}

export const notesFixtures: AreaFixtures = {
  after: ['users', 'issues', 'mergeRequests'],
  async load({ fixtures, trx, users, issuables }) {
    const loadNotes = async (key: string, type: 'Issue' | 'MergeRequest', notes: readonly NoteToLoad[]) => {
      const noteable = issuables.get(key);
      for (const note of notes)
        await insertNote(trx, {
          noteable_type: type,
          noteable_id: noteable.id,
          project_id: noteable.projectId,
          group_id: null,
          author_id: users.get(note.author),
          body: note.body,
          system: note.system ? 1 : 0,
          confidential: note.internal ? 1 : 0,
          created_at: note.at,
          updated_at: note.at,
        });
    };
    for (const project of fixtures.projects) {
      const fullPath = `${project.namespace}/${project.path}`;
      for (const [index, issue] of (project.issues ?? []).entries()) {
        const key = issuableKey(fullPath, 'Issue', index + 1);
        const closed: NoteToLoad[] = issue.closed_by
          ? [
              {
                body: 'closed',
                author: issue.closed_by,
                system: true,
                internal: false,
                at: issuables.get(key).createdAt,
              },
            ]
          : [];
        await loadNotes(key, 'Issue', [...closed, ...fileNotes(issue.notes)]);
      }
      for (const [index, mr] of (project.merge_requests ?? []).entries())
        await loadNotes(
          issuableKey(fullPath, 'MergeRequest', index + 1),
          'MergeRequest',
          fileNotes(mr.notes),
        );
    }
  },
};
