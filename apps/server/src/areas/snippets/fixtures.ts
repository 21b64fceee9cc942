// The snippets of a fixtures file: each project's, in project order, then the personal ones.
import type { AreaFixtures } from '../../core/area.js';
import type { Db } from '../../core/store/database.js';
import { daysBefore } from '../../core/store/fixtures.js';
import type { FixtureSnippet } from '../../core/store/fixturesFile.js';
import { insertFixtureSnippet } from './store.js';

async function loadSnippets(
  trx: Db,
  projectId: number | null,
  snippets: readonly FixtureSnippet[],
  userId: (username: string) => number,
): Promise<void> {
  for (const snippet of snippets) {
    const createdAt = daysBefore(snippet.created_days_ago);
    await insertFixtureSnippet(
      trx,
      {
        project_id: projectId,
        author_id: userId(snippet.author),
        title: snippet.title,
        description: snippet.description ?? null,
        visibility: snippet.visibility,
        expires_at: null,
        created_at: createdAt,
        updated_at: createdAt,
      },
      snippet.files,
    );
  }
}

export const snippetsFixtures: AreaFixtures = {
  after: ['users', 'projects'],
  async load({ fixtures, trx, users, projects }) {
    const userId = (username: string) => users.get(username);
    for (const project of fixtures.projects)
      await loadSnippets(
        trx,
        projects.get(`${project.namespace}/${project.path}`).id,
        project.snippets ?? [],
        userId,
      );
    await loadSnippets(trx, null, fixtures.snippets ?? [], userId);
  },
};
