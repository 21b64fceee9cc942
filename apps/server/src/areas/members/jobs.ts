// Expired memberships are removed when their last day begins, as GitLab's RemoveExpiredMembersWorker
// removes them: every area that reads memberships then agrees with core/access, which already ignores them
// from that moment (core/access/membership.ts). A membership given a last day queues its removal for that
// day; the job removes every membership expired by then, so a missed or doubled run does no harm.
import type { ServerContext } from '../../core/context.js';
import { todayIso } from '../../core/store/database.js';
import { deleteExpiredMembers } from './store.js';

const REMOVE_EXPIRED_JOB = 'members.removeExpired';

export function registerMemberJobs(context: ServerContext): void {
  context.jobs.register(REMOVE_EXPIRED_JOB, async () => {
    await deleteExpiredMembers(context.db, todayIso());
  });
}

/** Queues the removal of the memberships that expire on `expiresAt` (an ISO date), at that date's start. */
export async function scheduleExpiry(context: ServerContext, expiresAt: string): Promise<void> {
  const startsAt = Date.parse(`${expiresAt}T00:00:00Z`);
  if (Number.isNaN(startsAt)) return;
  await context.jobs.enqueue(
    REMOVE_EXPIRED_JOB,
    { expiresAt },
    { delayMs: Math.max(0, startsAt - Date.now()) },
  );
}
