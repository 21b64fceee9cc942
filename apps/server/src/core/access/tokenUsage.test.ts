import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../store/database.js';
import { recordTokenUse, TOKEN_USE_INTERVAL_MS, tokenUseDue } from './tokenUsage.js';

let dataDir: string;
let db: Db;
let tokenId: number;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-token-use-'));
  db = await openDatabase(dataDir);
  const { id: userId } = await db
    .insertInto('users')
    .values({
      username: 'ana',
      state: 'active',
      is_admin: 0,
      name: 'Ana',
      email: 'ana@example.com',
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  ({ id: tokenId } = await db
    .insertInto('personal_access_tokens')
    .values({ user_id: userId, name: 't', token_sha256: 'digest', scopes: '["api"]', revoked: 0 })
    .returning('id')
    .executeTakeFirstOrThrow());
});

afterEach(async () => {
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const lastUsedAt = async (): Promise<string | null> =>
  (
    await db
      .selectFrom('personal_access_tokens')
      .select('last_used_at')
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow()
  ).last_used_at;

const start = Date.parse('2026-11-28T10:00:00.000Z');

describe('recordTokenUse', () => {
  it('writes the first use, then nothing until ten minutes have passed', async () => {
    expect(tokenUseDue(db, tokenId, start)).toBe(true);
    await recordTokenUse(db, tokenId, start);
    expect(await lastUsedAt()).toBe('2026-11-28T10:00:00.000Z');
    expect(tokenUseDue(db, tokenId, start + 1000)).toBe(false);
    expect(tokenUseDue(db, tokenId, start + TOKEN_USE_INTERVAL_MS - 1)).toBe(false);
    expect(tokenUseDue(db, tokenId, start + TOKEN_USE_INTERVAL_MS)).toBe(true);
    await recordTokenUse(db, tokenId, start + TOKEN_USE_INTERVAL_MS);
    expect(await lastUsedAt()).toBe('2026-11-28T10:10:00.000Z');
  });

  it('leaves a recent time another process wrote', async () => {
    await db
      .updateTable('personal_access_tokens')
      .set({ last_used_at: '2026-11-28T09:55:00.000Z' })
      .where('id', '=', tokenId)
      .execute();
    // This process has not recorded the token yet, so the use is due here; the stored time is recent.
    expect(tokenUseDue(db, tokenId, start)).toBe(true);
    await recordTokenUse(db, tokenId, start);
    expect(await lastUsedAt()).toBe('2026-11-28T09:55:00.000Z');
    expect(tokenUseDue(db, tokenId, start + 1000)).toBe(false);
  });
});
