// Loads a fixtures file (the objects the API cannot create: users, tokens, groups, projects and their
// repositories …) into an empty database. Each area loads its own part (its `fixtures` hook, core/area.ts),
// all of them in one transaction that takes the write lock at its start: a bad file leaves nothing written,
// and of several processes opening one data directory only the first loads it. A database that already
// holds users is left alone, so a restart keeps all state.

import type { Area, AreaFixtures } from '../area.js';
import type { RepositoryStorages } from '../git/storages.js';
import type { Db } from './database.js';
import { nowIso } from './database.js';
import type { Fixtures } from './fixturesFile.js';

/** Names of a fixtures file (usernames, full paths …) → what the area that loaded them recorded. */
export class FixtureNames<T> {
  private readonly byName = new Map<string, T>();

  constructor(private readonly kind: string) {}

  set(name: string, value: T): void {
    this.byName.set(name, value);
  }

  find(name: string): T | undefined {
    return this.byName.get(name);
  }

  /** What `name` stands for; a name no area recorded is an error of the file. */
  get(name: string): T {
    const value = this.byName.get(name);
    if (value === undefined) throw new Error(`fixtures: unknown ${this.kind} ${name}`);
    return value;
  }
}

/** A project of the file as the projects area loaded it. */
export interface FixtureProject {
  id: number;
  defaultBranch: string;
  /** The bare repository's directory. */
  repositoryPath: string;
}

/** An issue or merge request of the file as its area loaded it (what notes and to-dos refer to). */
export interface FixtureIssuable {
  id: number;
  projectId: number;
  title: string;
  createdAt: string;
}

/** The key of an issue or merge request in FixtureLoad.issuables: its project's full path, type and iid. */
export function issuableKey(projectPath: string, type: 'Issue' | 'MergeRequest', iid: number): string {
  return `${projectPath} ${type} ${iid}`;
}

/** What an area's fixtures hook gets: the file, the transaction and the names the areas before it loaded. */
export interface FixtureLoad {
  readonly fixtures: Fixtures;
  /** The transaction of the whole file: every query of a hook uses it (a query on `db` would wait forever). */
  readonly trx: Db;
  readonly storages: RepositoryStorages;
  /** When the file is loaded (ISO): the creation time of what has no age of its own in the file. */
  readonly now: string;
  /** Username → user ID (the users area). */
  readonly users: FixtureNames<number>;
  /** Full path → group ID (the groups area). */
  readonly groups: FixtureNames<number>;
  /** Full path → project (the projects area). */
  readonly projects: FixtureNames<FixtureProject>;
  /** issuableKey(…) → issue or merge request (the issues and merge requests areas). */
  readonly issuables: FixtureNames<FixtureIssuable>;
  /** Undoes, when the load fails, what a hook made outside the database (a repository's directory). */
  onFailure(undo: () => Promise<void>): void;
}

/** The areas with fixtures hooks, each after the areas it names in `after` (in list order otherwise). */
export function fixtureOrder(areas: readonly Area[]): { name: string; fixtures: AreaFixtures }[] {
  const byName = new Map(areas.map((area) => [area.name, area]));
  const ordered: { name: string; fixtures: AreaFixtures }[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (area: Area): void => {
    if (state.get(area.name) === 'done') return;
    if (state.get(area.name) === 'visiting')
      throw new Error(`fixtures: the areas' fixtures hooks wait for each other (${area.name})`);
    state.set(area.name, 'visiting');
    for (const name of area.fixtures?.after ?? []) {
      const before = byName.get(name);
      if (!before) throw new Error(`fixtures: area ${area.name} loads after ${name}, which is not an area`);
      visit(before);
    }
    state.set(area.name, 'done');
    if (area.fixtures) ordered.push({ name: area.name, fixtures: area.fixtures });
  };
  for (const area of areas) visit(area);
  return ordered;
}

/** Loads `fixtures` through the areas' hooks into an empty database; returns whether it did. */
export async function loadFixturesIfEmpty(
  context: { db: Db; storages: RepositoryStorages },
  fixtures: Fixtures,
  areas: readonly Area[],
): Promise<boolean> {
  const hooks = fixtureOrder(areas);
  const undos: (() => Promise<void>)[] = [];
  try {
    return await context.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
      if (existing) return false;
      const load: FixtureLoad = {
        fixtures,
        trx,
        storages: context.storages,
        now: nowIso(),
        users: new FixtureNames('user'),
        groups: new FixtureNames('group'),
        projects: new FixtureNames('project'),
        issuables: new FixtureNames('issue or merge request'),
        onFailure: (undo) => {
          undos.push(undo);
        },
      };
      for (const hook of hooks) await hook.fixtures.load(load);
      return true;
    });
  } catch (error) {
    for (const undo of undos.reverse()) await undo();
    throw error;
  }
}

/** When something happened `daysAgo` days before now (fixtures spread their objects out in time). */
export function daysBefore(daysAgo: number | undefined): string {
  return new Date(Date.now() - (daysAgo ?? 0) * 86_400_000).toISOString();
}
