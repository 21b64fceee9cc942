// When a personal access token was last used (`last_used_at`), as GitLab's PersonalAccessTokens::
// LastUsedService keeps it: written when the token authenticates a request and the value is absent or at
// least ten minutes old, so a busy token costs one write per ten minutes, not one per request. Each process
// remembers when it last wrote a token's time; the write itself is conditional, so several processes on one
// database write it once per interval between them, and a write that finds a recent time changes nothing.
import type { Db } from '../store/database.js';

export const TOKEN_USE_INTERVAL_MS = 10 * 60 * 1000;

/** Per database: token ID → when this process last recorded its use (ms since the epoch). */
const recorded = new WeakMap<Db, Map<number, number>>();

function recordedFor(db: Db): Map<number, number> {
  let map = recorded.get(db);
  if (!map) {
    map = new Map();
    recorded.set(db, map);
  }
  return map;
}

/** Whether the token's use is due to be written now (nothing of it written by this process lately). */
export function tokenUseDue(db: Db, tokenId: number, now = Date.now()): boolean {
  const last = recordedFor(db).get(tokenId);
  return last === undefined || now - last >= TOKEN_USE_INTERVAL_MS;
}

/**
 * Writes the token's `last_used_at` unless it is recent. A failed write is forgotten (the next request
 * tries again): the use of a token is never a reason to fail its request.
 */
export async function recordTokenUse(db: Db, tokenId: number, now = Date.now()): Promise<void> {
  const map = recordedFor(db);
  map.set(tokenId, now);
  const cutoff = new Date(now - TOKEN_USE_INTERVAL_MS).toISOString();
  try {
    await db
      .updateTable('personal_access_tokens')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', tokenId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', cutoff)]))
      .execute();
  } catch {
    map.delete(tokenId);
  }
}
