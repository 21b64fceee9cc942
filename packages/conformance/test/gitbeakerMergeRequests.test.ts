// gitbeaker (@gitbeaker/rest 43.8) against merge requests made, changed and merged through the API, called
// as its documentation shows them: MergeRequests.create(projectId, sourceBranch, targetBranch, title,
// options), MergeRequests.edit(projectId, iid, options) and MergeRequests.merge(projectId, iid, options)
// (`accept` is the same call), MergeRequests.cancelOnPipelineSuccess(projectId, iid), MergeRequests.remove(projectId, iid), with gitbeaker's camelCase options sent as a snake_case JSON body. The
// branches and commits come through gitbeaker too (Branches.create, RepositoryFiles.create). Every response
// of the API also goes through the suite's validating fetch.
//
// On a shared server the file changes only the project it creates (its name carries RUN), removed at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { gitbeakerClients, refusal, validateGlobalFetch } from './gitbeakerSupport.js';

let target: Target;
const as = gitbeakerClients(() => target);
let restoreFetch = () => {};
/** A public project of this run in the fixtures' group, `main` with a README. */
let projectId: number;
let counter = 0;

/** A new branch from `main` with one commit of its own (made by the developer through gitbeaker). */
async function branchWithCommit(file: string): Promise<string> {
  const name = `gb-${RUN.toLowerCase()}-${++counter}`;
  await as('developer').Branches.create(projectId, name, 'main');
  await as('developer').RepositoryFiles.create(projectId, file, name, `${file}\n`, `Add ${file}`);
  return name;
}

beforeAll(async () => {
  target = await openTarget();
  restoreFetch = validateGlobalFetch(target);
  const group = await as('owner').Groups.show(target.config.fixtures.namespace);
  const project = await as('owner').Projects.create({
    name: `Gitbeaker MRs ${RUN}`,
    namespaceId: group.id,
    initializeWithReadme: true,
    visibility: 'public',
  });
  projectId = project.id;
});
afterAll(async () => {
  if (projectId !== undefined) await as('owner').Projects.remove(projectId);
  restoreFetch();
  await target?.close();
});

describe('MergeRequests', () => {
  it('creates a merge request with labels, an assignee and remove_source_branch', async () => {
    const source = await branchWithCommit('create.txt');
    const { maintainer } = target.config.fixtures.users;
    const created = await as('developer').MergeRequests.create(projectId, source, 'main', `Create ${RUN}`, {
      description: 'Made by gitbeaker',
      labels: 'gitbeaker,review',
      assigneeIds: [maintainer.id],
      removeSourceBranch: true,
    });
    expect(created).toMatchObject({
      project_id: projectId,
      source_branch: source,
      target_branch: 'main',
      title: `Create ${RUN}`,
      state: 'opened',
      labels: ['gitbeaker', 'review'],
      force_remove_source_branch: true,
    });
    expect(created.assignees?.map((user) => user.id)).toEqual([maintainer.id]);
    const shown = await as('reporter').MergeRequests.show(projectId, created.iid);
    expect(shown.id).toBe(created.id);
    // An open duplicate: gitbeaker surfaces GitLab's 409.
    const duplicate = await refusal(as('developer').MergeRequests.create(projectId, source, 'main', 'again'));
    expect(duplicate.status).toBe(409);
    const reporter = await refusal(
      as('reporter').MergeRequests.create(projectId, await branchWithCommit('r.txt'), 'main', 'no'),
    );
    expect(reporter.status).toBe(403);
  });

  it('edits the title and labels, closes and reopens', async () => {
    const source = await branchWithCommit('edit.txt');
    const { iid } = await as('developer').MergeRequests.create(projectId, source, 'main', `Edit ${RUN}`);
    const edited = await as('developer').MergeRequests.edit(projectId, iid, {
      title: `Edited ${RUN}`,
      addLabels: 'one,two',
      description: 'changed',
    });
    expect(edited).toMatchObject({ title: `Edited ${RUN}`, labels: ['one', 'two'], description: 'changed' });
    const closed = await as('maintainer').MergeRequests.edit(projectId, iid, {
      stateEvent: 'close',
      removeLabels: 'one',
    });
    expect(closed).toMatchObject({ state: 'closed', labels: ['two'] });
    const reopened = await as('developer').MergeRequests.edit(projectId, iid, { stateEvent: 'reopen' });
    expect(reopened.state).toBe('opened');
    const guest = await refusal(as('guest').MergeRequests.edit(projectId, iid, { title: 'no' }));
    expect(guest.status).toBe(403);
  });

  it('merges with sha and shouldRemoveSourceBranch, and refuses a second merge (405)', async () => {
    const source = await branchWithCommit('merge.txt');
    const head = (await as('developer').Branches.show(projectId, source)).commit.id as string;
    const { iid } = await as('developer').MergeRequests.create(projectId, source, 'main', `Merge ${RUN}`);
    const stale = await refusal(as('developer').MergeRequests.merge(projectId, iid, { sha: 'f'.repeat(40) }));
    expect(stale.status).toBe(409);
    const merged = await as('developer').MergeRequests.merge(projectId, iid, {
      sha: head,
      shouldRemoveSourceBranch: true,
      mergeCommitMessage: `Merged by gitbeaker ${RUN}`,
    });
    expect(merged).toMatchObject({ state: 'merged', should_remove_source_branch: true });
    expect(merged.merged_by?.id).toBe(target.config.fixtures.users.developer.id);
    const main = await as('developer').Branches.show(projectId, 'main');
    expect(main.commit.id).toBe(merged.merge_commit_sha);
    expect(main.commit.message).toBe(`Merged by gitbeaker ${RUN}`);
    expect((await refusal(as('developer').Branches.show(projectId, source))).status).toBe(404);
    expect((await refusal(as('developer').MergeRequests.accept(projectId, iid))).status).toBe(405);
    const reporter = await refusal(
      as('reporter').MergeRequests.merge(
        projectId,
        (await as('developer').MergeRequests.create(projectId, await branchWithCommit('x.txt'), 'main', 'x'))
          .iid,
      ),
    );
    expect(reporter.status).toBe(401);
  });

  it('sets the merge for when the pipeline succeeds, and cancels it (cancelOnPipelineSuccess)', async () => {
    const source = `gb-${RUN.toLowerCase()}-${++counter}`;
    await as('developer').Branches.create(projectId, source, 'main');
    // A job long enough (declared seconds, scaled on the local server) to cancel while it runs.
    await as('developer').RepositoryFiles.create(
      projectId,
      '.collab-ci.yml',
      source,
      'slow:\n  script: sleep\n  duration: 800\n',
      'A slow pipeline',
    );
    const { iid } = await as('developer').MergeRequests.create(projectId, source, 'main', `Auto ${RUN}`);
    await as('developer').Pipelines.create(projectId, source);
    const set = await as('developer').MergeRequests.merge(projectId, iid, {
      mergeWhenPipelineSucceeds: true,
    });
    expect(set).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    const canceled = await as('developer').MergeRequests.cancelOnPipelineSuccess(projectId, iid);
    expect(canceled).toMatchObject({
      state: 'opened',
      merge_when_pipeline_succeeds: false,
      merge_user: null,
    });
    const again = await refusal(as('developer').MergeRequests.cancelOnPipelineSuccess(projectId, iid));
    expect(again.status).toBe(405);
  });

  it('removes a merge request as the owner (remove), refused to a maintainer (403)', async () => {
    const source = await branchWithCommit('remove.txt');
    const { iid } = await as('developer').MergeRequests.create(projectId, source, 'main', `Remove ${RUN}`);
    expect((await refusal(as('maintainer').MergeRequests.remove(projectId, iid))).status).toBe(403);
    await as('owner').MergeRequests.remove(projectId, iid);
    expect((await refusal(as('owner').MergeRequests.show(projectId, iid))).status).toBe(404);
  });
});
