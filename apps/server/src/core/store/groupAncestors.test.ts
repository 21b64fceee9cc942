// The closure table of groups (migration 016): every group has its ancestors and itself as rows, whoever
// inserts the group, and they go with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, nowIso, openDatabase } from './database.js';

let dataDir: string;
let db: Db;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-group-ancestors-'));
  db = await openDatabase(dataDir);
});
afterAll(async () => {
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

async function insertGroup(path: string, parentId: number | null): Promise<number> {
  const { id } = await db
    .insertInto('groups')
    .values({
      name: path,
      path: path.split('/').at(-1) ?? path,
      full_path: path,
      parent_id: parentId,
      visibility: 'private',
      description: '',
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const ancestorsOf = async (groupId: number) =>
  (
    await db
      .selectFrom('group_ancestors')
      .select(['ancestor_id', 'depth'])
      .where('group_id', '=', groupId)
      .orderBy('depth')
      .execute()
  ).map((row) => [row.ancestor_id, row.depth]);

describe('group_ancestors', () => {
  it('holds each inserted group, nearest first, down any depth', async () => {
    const top = await insertGroup('top', null);
    const middle = await insertGroup('top/middle', top);
    const bottom = await insertGroup('top/middle/bottom', middle);
    const other = await insertGroup('other', null);
    expect(await ancestorsOf(top)).toEqual([[top, 0]]);
    expect(await ancestorsOf(bottom)).toEqual([
      [bottom, 0],
      [middle, 1],
      [top, 2],
    ]);
    expect(await ancestorsOf(other)).toEqual([[other, 0]]);
  });

  it('loses the rows of a deleted group', async () => {
    const lone = await insertGroup('lone', null);
    await db.deleteFrom('groups').where('id', '=', lone).execute();
    expect(await ancestorsOf(lone)).toEqual([]);
  });
});
