// The harness of the files that work in groups they make themselves (accessRules, memberWrites,
// groupWrites): the target, the role that may create groups (the config's `groupCreation`, `allowed` and
// `refused`; without it the tests that need it skip), the groups made, deleted again at the end (a shared
// server stays as it was), names unique to the run, the roles' user IDs and a request as a role.
import { afterAll, beforeAll } from 'vitest';
import { openTarget, RUN, type Target, type UserRole } from '../src/index.js';
import { type Answer, type Caller, callAs } from './callAs.js';

export interface MadeGroups {
  readonly target: Target;
  /** The role that may create top-level groups. */
  readonly creator: UserRole;
  /** A role that may not. */
  readonly nonCreator: UserRole;
  /** The config has no `groupCreation`: the tests that create groups skip. */
  readonly skipped: boolean;
  /** A group to delete at the end. */
  remember(groupId: number): void;
  /** A path no other test of this run takes. */
  fresh(what: string): string;
  idOf(role: UserRole): number;
  call<T = unknown>(
    caller: Caller,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    json?: object,
  ): Promise<Answer<T>>;
}

/** Registers the file's beforeAll and afterAll; the fields are read once beforeAll has run. */
export function madeGroups(): MadeGroups {
  let target: Target | undefined;
  let creator: UserRole = 'owner';
  let nonCreator: UserRole = 'guest';
  let skipped = false;
  const made: number[] = [];
  let serial = 0;
  beforeAll(async () => {
    target = await openTarget();
    const creation = target.config.fixtures.groupCreation;
    skipped = creation === undefined;
    creator = creation?.allowed ?? 'owner';
    nonCreator = creation?.refused ?? 'guest';
  });
  afterAll(async () => {
    if (!target) return;
    for (const id of made) await callAs(target, 'admin', `/groups/${id}`, { method: 'DELETE' });
    await target.close();
  });
  const opened = (): Target => {
    if (!target) throw new Error('the target is opened by beforeAll');
    return target;
  };
  return {
    get target() {
      return opened();
    },
    get creator() {
      return creator;
    },
    get nonCreator() {
      return nonCreator;
    },
    get skipped() {
      return skipped;
    },
    remember: (groupId) => {
      made.push(groupId);
    },
    fresh: (what) => `${what}-${RUN}-${++serial}`.toLowerCase(),
    idOf: (role) => opened().config.fixtures.users[role].id,
    call: <T = unknown>(
      caller: Caller,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      json?: object,
    ) => callAs<T>(opened(), caller, path, { method, json: json as Record<string, unknown> | undefined }),
  };
}
