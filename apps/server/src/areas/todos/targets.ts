// The objects to-dos are about, presented for the to-do list a page at a time. Each area with to-do targets
// (issues, merge requests, epics) registers a presenter for its type through registerTodoTarget, from its
// own index, so that this area never imports them (they import it to make to-dos). To-dos whose target
// type has no presenter are not listed.
import type { ServerContext } from '../../core/context.js';
import type { Schemas } from '../../core/http/types.js';

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
