// Snippets (document 2, 4.5 and 4.6): personal snippets under /snippets and project snippets under
// /projects/:id/snippets. Other areas read project snippets through findReadableProjectSnippet; a deletion
// of a user hands the user's snippets over through handOverSnippets.
import type { Area } from '../../core/area.js';
import { snippetsFixtures } from './fixtures.js';
import { snippetsHandlers } from './routes.js';

export const snippetsArea: Area = {
  name: 'snippets',
  handlers: snippetsHandlers,
  fixtures: snippetsFixtures,
};
export { findReadableProjectSnippet, type ReadableProjectSnippet } from './readable.js';
export { handOverSnippets } from './store.js';
