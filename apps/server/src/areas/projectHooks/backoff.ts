// A hook that keeps failing is backed off, as GitLab backs off project hooks (WebHooks::AutoDisabling):
// after more than TEMPORARY_THRESHOLD failed attempts in a row it is left out of events until
// `disabled_until` (one minute, doubling with each further failure, at most a day), and after more than
// PERMANENT_THRESHOLD it is left out for good; a successful attempt resets it. So an unreachable receiver
// costs a few attempts, not one (and its retries) per event: events while it is backed off queue nothing for
// it, and a delivery whose hook is backed off when its attempt comes ends failed, unsent ("Hook disabled").

/** Failed attempts in a row a hook may have and still be tried at once (GitLab: 3). */
export const TEMPORARY_THRESHOLD = 3;
/** Past this many failed attempts in a row a hook is never tried again by events (GitLab: 39). */
export const PERMANENT_THRESHOLD = 39;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 86_400_000;

/** What the backoff reads of a hook. */
export interface HookFailureState {
  recent_failures: number;
  disabled_until: string | null;
}

/** Whether events and attempts may go to the hook at `nowMs` (GitLab's WebHooks::AutoDisabling#executable?). */
export function hookExecutable(hook: HookFailureState, nowMs: number): boolean {
  if (hook.recent_failures > PERMANENT_THRESHOLD) return false;
  if (hook.recent_failures <= TEMPORARY_THRESHOLD) return true;
  return hook.disabled_until !== null && Date.parse(hook.disabled_until) < nowMs;
}

/** The hook's `alert_status` at `nowMs`, as GitLab's WebHooks::AutoDisabling#alert_status tells it. */
export function hookAlertStatus(
  hook: HookFailureState,
  nowMs: number,
): 'executable' | 'temporarily_disabled' | 'disabled' {
  if (hook.recent_failures > PERMANENT_THRESHOLD) return 'disabled';
  return hookExecutable(hook, nowMs) ? 'executable' : 'temporarily_disabled';
}

/**
 * The hook's state after an attempt at `nowMs` (GitLab's enable! and backoff!), or null when it stays as it
 * is: a success resets it; a failure counts, and past the threshold backs the hook off.
 */
export function afterAttempt(
  hook: HookFailureState,
  delivered: boolean,
  nowMs: number,
): HookFailureState | null {
  if (delivered)
    return hook.recent_failures === 0 && hook.disabled_until === null
      ? null
      : { recent_failures: 0, disabled_until: null };
  // A hook backed off meanwhile (another attempt's failure) is not counted again.
  if (!hookExecutable(hook, nowMs)) return null;
  const failures = Math.min(hook.recent_failures + 1, PERMANENT_THRESHOLD + 1);
  if (failures <= TEMPORARY_THRESHOLD)
    return { recent_failures: failures, disabled_until: hook.disabled_until };
  const backoffMs = Math.min(
    INITIAL_BACKOFF_MS * 2 ** Math.max(hook.recent_failures - TEMPORARY_THRESHOLD, 0),
    MAX_BACKOFF_MS,
  );
  return { recent_failures: failures, disabled_until: new Date(nowMs + backoffMs).toISOString() };
}
