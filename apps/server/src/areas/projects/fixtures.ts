// The projects of a fixtures file: their rows, starrers, custom attributes and shares with groups, and their
// repositories (the files committed to the default branch one commit each, then the branches and their own
// commits). A repository made by a load that fails is removed with it.
import { rm } from 'node:fs/promises';
import type { AreaFixtures } from '../../core/area.js';
import { GitRepository, initBareRepository } from '../../core/git/repository.js';
import { insertCustomAttributes } from '../../core/store/customAttributes.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import { insertProject, insertProjectShare, insertProjectStar } from './store.js';

async function seedRepository(
  repo: GitRepository,
  defaultBranch: string,
  content: NonNullable<Fixtures['projects'][number]['repository']>,
  fixtures: Fixtures,
  creator: string,
): Promise<void> {
  const author = fixtures.users.find((u) => u.username === creator);
  const identity = {
    authorName: author?.name ?? creator,
    authorEmail: author?.email ?? `${creator}@example.com`,
    committerName: author?.name ?? creator,
    committerEmail: author?.email ?? `${creator}@example.com`,
  };
  const commitAll = async (branch: string, files: Record<string, string>): Promise<void> => {
    for (const [filePath, text] of Object.entries(files)) {
      const result = await repo.commitFileChange({
        branch,
        action: 'create',
        filePath,
        content: Buffer.from(text),
        message: `Add ${filePath}`,
        ...identity,
      });
      if (!result.ok) throw new Error(`fixtures: cannot commit ${filePath} to ${branch}: ${result.reason}`);
    }
  };
  await commitAll(defaultBranch, content.files);
  for (const branch of content.branches ?? []) {
    const created = await repo.createBranch(branch.name, branch.from ?? defaultBranch);
    if (!created.ok) throw new Error(`fixtures: cannot create branch ${branch.name}: ${created.reason}`);
    if (branch.files) await commitAll(branch.name, branch.files);
  }
}

export const projectsFixtures: AreaFixtures = {
  after: ['users', 'groups'],
  async load({ fixtures, trx, storages, now, users, groups, projects, onFailure }) {
    const storage = storages.names[0] ?? 'default';
    for (const project of fixtures.projects) {
      const defaultBranch = project.default_branch ?? 'main';
      const { id } = await insertProject(
        trx,
        {
          name: project.name,
          path: project.path,
          namespace_id: groups.get(project.namespace),
          visibility: project.visibility,
          description: project.description ?? null,
          default_branch: defaultBranch,
          archived: 0,
          repository_storage: storage,
          creator_id: users.get(project.creator),
          created_at: now,
          last_activity_at: now,
          repository_generation: 0,
          issues_enabled: project.issues_enabled === false ? 0 : 1,
          merge_requests_enabled: project.merge_requests_enabled === false ? 0 : 1,
        },
        undefined,
      );
      for (const [index, username] of (project.starred_by ?? []).entries()) {
        // A second apart, so the starrers' order (newest first) is the file's, reversed.
        const starredAt = new Date(Date.parse(now) + index * 1000).toISOString();
        await insertProjectStar(trx, id, users.get(username), starredAt);
      }
      await insertCustomAttributes(trx, 'Project', id, project.custom_attributes ?? {}, now);
      for (const share of project.shared_with ?? [])
        await insertProjectShare(trx, id, groups.get(share.group), share.group_access);

      const repositoryPath = storages.pathFor(storage, id);
      onFailure(() => rm(repositoryPath, { recursive: true, force: true }));
      await initBareRepository(repositoryPath, defaultBranch);
      if (project.repository)
        await seedRepository(
          new GitRepository(repositoryPath),
          defaultBranch,
          project.repository,
          fixtures,
          project.creator,
        );
      projects.set(`${project.namespace}/${project.path}`, { id, defaultBranch, repositoryPath });
    }
  },
};
