// What issues and merge requests show alike: the embedded user, issuables of several projects presented
// together (a to-do list's targets), the task list count of a description and the empty time stats.

import type { Schemas } from '../../core/http/types.js';
import type { Db } from '../../core/store/database.js';
import { type IssuableUser, projectPathsById } from './store.js';

export type UserBasic = Schemas['UserBasic'];

export function presentUser(user: IssuableUser, origin: string): UserBasic {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    avatar_url: user.avatar_url,
    web_url: `${origin}/${user.username}`,
  };
}

/**
 * Issuables of several projects (a to-do list's targets) presented by a presenter of one project's page, by
 * ID: the rows grouped by project, each group presented with its project's full path.
 */
export async function presentAcrossProjects<Row extends { id: number; project_id: number }, Body>(
  db: Db,
  rows: readonly Row[],
  present: (rows: Row[], projectId: number, fullPath: string) => Promise<Body[]>,
): Promise<Map<number, Body>> {
  const paths = await projectPathsById(
    db,
    rows.map((row) => row.project_id),
  );
  const presented = new Map<number, Body>();
  for (const [projectId, fullPath] of paths) {
    const ofProject = rows.filter((row) => row.project_id === projectId);
    const bodies = await present(ofProject, projectId, fullPath);
    for (const [index, row] of ofProject.entries()) {
      const body = bodies[index];
      if (body !== undefined) presented.set(row.id, body);
    }
  }
  return presented;
}

/** The task list items of a Markdown description (`- [ ]`, `* [x]`, `1. [ ]`), and how many are checked. */
export function taskCompletion(description: string | null): { count: number; completed_count: number } {
  let count = 0;
  let completed = 0;
  for (const line of (description ?? '').split('\n')) {
    const match = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s/.exec(line);
    if (!match) continue;
    count += 1;
    if (match[1] !== ' ') completed += 1;
  }
  return { count, completed_count: completed };
}

/** GitLab's time stats of an issuable without time tracking. */
export const NO_TIME_STATS = {
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
} as const;
