// The objects to-dos are about, presented for the to-do list a page at a time. Issues and merge requests are
// presented by their areas (registered here); an area with other targets (epics) registers a presenter for
// its type through registerTodoTarget, so that this area never reaches into its internals. To-dos whose
// target type has no presenter are not listed.
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';
import { presentIssuesById } from '../issues/index.js';
import { presentMergeRequestsById } from '../mergeRequests/index.js';

export type TodoTarget = Schemas['TodoTarget'];

/** A presented target and the web URL the to-do links to. */
export interface PresentedTarget {
  target: TodoTarget;
  url: string;
}

/** Presents the targets with these IDs; a missing one (deleted meanwhile) is left out of the map. */
export type TodoTargetPresenter = (
  context: ServerContext,
  ids: readonly number[],
  origin: string,
) => Promise<Map<number, PresentedTarget>>;

const presenters = new Map<string, TodoTargetPresenter>();

/** Lets the to-do list show to-dos about objects of `type` (`Epic` …), presented by `presenter`. */
export function registerTodoTarget(type: string, presenter: TodoTargetPresenter): void {
  presenters.set(type, presenter);
}

export function todoTargetTypes(): string[] {
  return [...presenters.keys()];
}

export function todoTargetPresenter(type: string): TodoTargetPresenter | undefined {
  return presenters.get(type);
}

// Issues and merge requests are shown as their own lists show them (GitLab's Todo entity embeds the target's
// entity), presented by their areas.
registerTodoTarget('Issue', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, issue] of await presentIssuesById(context.db, ids, origin))
    presented.set(id, { target: issue, url: issue.web_url });
  return presented;
});

registerTodoTarget('MergeRequest', async (context, ids, origin) => {
  const presented = new Map<number, PresentedTarget>();
  for (const [id, mergeRequest] of await presentMergeRequestsById(context.db, ids, origin))
    presented.set(id, { target: mergeRequest, url: mergeRequest.web_url });
  return presented;
});
