// The deploy keys area's queries: the keys of the instance (table deploy_keys) and their uses by projects
// (deploy_keys_projects, with each project's can_push).
import type { Db } from '../../core/store/database.js';
import { nowIso } from '../../core/store/database.js';
import { type Page, type PageWindow, readPageOf } from '../../core/store/paging.js';
import type { DeployKeysTable } from '../../core/store/tables.js';

export type DeployKeyRow = Omit<DeployKeysTable, 'id'> & { id: number };
export type ProjectKeyRow = DeployKeyRow & { can_push: number };

/** The keys enabled for a project, nothing selected yet (a list counts them, a read selects one). */
function projectKeyUses(db: Db, projectId: number) {
  return db
    .selectFrom('deploy_keys_projects as dkp')
    .innerJoin('deploy_keys as dk', 'dk.id', 'dkp.deploy_key_id')
    .where('dkp.project_id', '=', projectId);
}

/** The key as enabled for the project (with its can_push), or undefined. */
export function findProjectKey(db: Db, projectId: number, keyId: number): Promise<ProjectKeyRow | undefined> {
  return projectKeyUses(db, projectId)
    .selectAll('dk')
    .select('dkp.can_push')
    .where('dk.id', '=', keyId)
    .executeTakeFirst();
}

/** One page of the project's keys, by key ID. */
export function pageOfProjectKeys(
  db: Db,
  projectId: number,
  window: PageWindow,
): Promise<Page<ProjectKeyRow>> {
  return readPageOf(
    db,
    projectKeyUses(db, projectId),
    // By the key id of the project's index (equal to dk.id): no sort of the whole collection.
    (query) => query.selectAll('dk').select('dkp.can_push').orderBy('dkp.deploy_key_id'),
    window,
  );
}

/** One page of every key of the instance, oldest first. */
export function pageOfKeys(db: Db, window: PageWindow): Promise<Page<DeployKeyRow>> {
  return readPageOf(db, db.selectFrom('deploy_keys'), (query) => query.selectAll().orderBy('id'), window);
}

/** The projects that use the key. */
export function projectsUsingKey(db: Db, keyId: number) {
  return db
    .selectFrom('deploy_keys_projects as dkp')
    .innerJoin('projects as p', 'p.id', 'dkp.project_id')
    .selectAll('p')
    .where('dkp.deploy_key_id', '=', keyId)
    .execute();
}

export function findKeyByFingerprint(db: Db, fingerprintSha256: string): Promise<DeployKeyRow | undefined> {
  return db
    .selectFrom('deploy_keys')
    .selectAll()
    .where('fingerprint_sha256', '=', fingerprintSha256)
    .executeTakeFirst();
}

export async function keyExists(db: Db, keyId: number): Promise<boolean> {
  const key = await db.selectFrom('deploy_keys').select('id').where('id', '=', keyId).executeTakeFirst();
  return key !== undefined;
}

/** Adds a key to the instance; returns its ID. */
export async function insertKey(
  db: Db,
  key: { title: string; key: string; fingerprintSha256: string },
): Promise<number> {
  const { id } = await db
    .insertInto('deploy_keys')
    .values({
      title: key.title,
      key: key.key,
      fingerprint_sha256: key.fingerprintSha256,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Enables the key for the project (a unique violation when it is already). */
export async function insertKeyUse(
  db: Db,
  projectId: number,
  keyId: number,
  canPush: boolean,
): Promise<void> {
  await db
    .insertInto('deploy_keys_projects')
    .values({ project_id: projectId, deploy_key_id: keyId, can_push: canPush ? 1 : 0, created_at: nowIso() })
    .execute();
}

/** The title belongs to the key (shared by its projects). */
export async function setKeyTitle(db: Db, keyId: number, title: string): Promise<void> {
  await db.updateTable('deploy_keys').set({ title }).where('id', '=', keyId).execute();
}

/** can_push belongs to one project's use of the key. */
export async function setKeyCanPush(
  db: Db,
  projectId: number,
  keyId: number,
  canPush: boolean,
): Promise<void> {
  await db
    .updateTable('deploy_keys_projects')
    .set({ can_push: canPush ? 1 : 0 })
    .where('project_id', '=', projectId)
    .where('deploy_key_id', '=', keyId)
    .execute();
}

/** Removes the key from the project, and from the instance when no other project uses it (in one transaction). */
export function removeKeyUse(db: Db, projectId: number, keyId: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('deploy_keys_projects')
      .where('project_id', '=', projectId)
      .where('deploy_key_id', '=', keyId)
      .execute();
    const stillUsed = await trx
      .selectFrom('deploy_keys_projects')
      .select('project_id')
      .where('deploy_key_id', '=', keyId)
      .executeTakeFirst();
    if (!stillUsed) await trx.deleteFrom('deploy_keys').where('id', '=', keyId).execute();
  });
}
