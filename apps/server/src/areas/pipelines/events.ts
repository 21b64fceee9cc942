// Tells interested areas (project hooks) that a pipeline's status changed: when it is created, at each runner
// step that moves it, and when it is canceled or retried. Listeners run after the change is committed, in
// the request or runner step that made it: they should only queue work.
import type { ServerContext } from '../../core/context.js';

export type PipelineStatusListener = (pipelineId: number) => Promise<void>;

/** Per running server (tests run several in one process). */
const listenersOf = new WeakMap<ServerContext, PipelineStatusListener[]>();

export function onPipelineStatusChange(context: ServerContext, listener: PipelineStatusListener): void {
  const listeners = listenersOf.get(context) ?? [];
  listeners.push(listener);
  listenersOf.set(context, listeners);
}

export async function pipelineStatusChanged(context: ServerContext, pipelineId: number): Promise<void> {
  for (const listener of listenersOf.get(context) ?? []) await listener(pipelineId);
}
