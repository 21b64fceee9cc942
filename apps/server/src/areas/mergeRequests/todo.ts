// Merge requests as to-do targets: the to-do list shows a merge request as the merge request list shows it
// (GitLab's Todo entity embeds the target's entity).
import { type PresentedTarget, registerTodoTarget } from '../todos/index.js';
import { presentMergeRequestsById } from './present.js';

registerTodoTarget('MergeRequest', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, mergeRequest] of await presentMergeRequestsById(context.db, ids, origin))
    presented.set(id, { target: mergeRequest, url: mergeRequest.web_url });
  return presented;
});
