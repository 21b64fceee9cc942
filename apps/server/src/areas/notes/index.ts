// Notes (document 2, 4.4): list, read, create, modify and delete the notes of issues, merge requests,
// project snippets and epics; a body that is only an award emoji awards it; system notes record an issue's
// closing and reopening and an epic's.
import type { Area } from '../../core/area.js';
import { notesFixtures } from './fixtures.js';
import { notesHandlers } from './routes.js';
import { registerSystemNotes } from './systemNotes.js';

export const notesArea: Area = {
  name: 'notes',
  fixtures: notesFixtures,
  handlers: notesHandlers,
  // No background work: the system notes' subscriptions are registered here, once per server, as the
  // project hooks register theirs.
  registerJobs: (context) => registerSystemNotes(context),
};
// A user's deletion hands the user's notes and award emoji over (users area, in its transaction).
export { handOverNotes } from './store.js';
