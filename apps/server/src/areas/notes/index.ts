// Notes (document 2, 4.4): list, read, create, modify and delete the notes of issues, merge requests,
// project snippets and epics; a body that is only an award emoji awards it; system notes record an issue's
// closing and reopening and an epic's.
import type { Area } from '../../core/area.js';
import { notesFixtures } from './fixtures.js';
import { notesRouter } from './routes.js';
import { registerSystemNotes } from './systemNotes.js';

export const notesArea: Area = {
  name: 'notes',
  fixtures: notesFixtures,
  router: notesRouter,
  // No background work: the system notes' subscriptions are registered here, once per server, as the
  // project hooks register theirs.
  registerJobs: (context) => registerSystemNotes(context),
};
