// The backoff of a failing hook, as GitLab's WebHooks::AutoDisabling counts it.
import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  type HookFailureState,
  hookAlertStatus,
  hookExecutable,
  PERMANENT_THRESHOLD,
} from './backoff.js';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const MINUTE = 60_000;
const fresh: HookFailureState = { recent_failures: 0, disabled_until: null };

/** The state after `count` failed attempts, each a moment after the hook could be tried again. */
function failedTimes(count: number): HookFailureState {
  let state = fresh;
  let now = NOW;
  for (let i = 0; i < count; i++) {
    state = afterAttempt(state, false, now) ?? state;
    if (state.disabled_until !== null) now = Date.parse(state.disabled_until) + 1;
  }
  return state;
}

describe('hook backoff', () => {
  it('tries a hook at once for three failures, then backs it off a minute, doubling, at most a day', () => {
    expect(failedTimes(3)).toEqual({ recent_failures: 3, disabled_until: null });
    expect(hookExecutable(failedTimes(3), NOW)).toBe(true);
    const fourth = afterAttempt(failedTimes(3), false, NOW);
    expect(fourth).toEqual({ recent_failures: 4, disabled_until: new Date(NOW + MINUTE).toISOString() });
    expect(hookExecutable(fourth ?? fresh, NOW + MINUTE - 1)).toBe(false);
    expect(hookExecutable(fourth ?? fresh, NOW + MINUTE + 1)).toBe(true);
    const fifth = afterAttempt(fourth ?? fresh, false, NOW + MINUTE + 1);
    expect(fifth?.disabled_until).toBe(new Date(NOW + MINUTE + 1 + 2 * MINUTE).toISOString());
    const late = afterAttempt(
      { recent_failures: 30, disabled_until: new Date(NOW - 1).toISOString() },
      false,
      NOW,
    );
    expect(late?.disabled_until).toBe(new Date(NOW + 86_400_000).toISOString());
  });

  it('does not count a failure while backed off, and leaves a hook out for good past the last threshold', () => {
    const backedOff = { recent_failures: 4, disabled_until: new Date(NOW + MINUTE).toISOString() };
    expect(afterAttempt(backedOff, false, NOW)).toBeNull();
    const gone = failedTimes(PERMANENT_THRESHOLD + 1);
    expect(gone.recent_failures).toBe(PERMANENT_THRESHOLD + 1);
    expect(hookExecutable(gone, Date.parse(gone.disabled_until ?? '') + 1)).toBe(false);
  });

  it("tells the hook's alert status as GitLab does", () => {
    expect(hookAlertStatus(failedTimes(3), NOW)).toBe('executable');
    const fourth = afterAttempt(failedTimes(3), false, NOW) ?? fresh;
    expect(hookAlertStatus(fourth, NOW)).toBe('temporarily_disabled');
    expect(hookAlertStatus(fourth, NOW + MINUTE + 1)).toBe('executable');
    expect(hookAlertStatus(failedTimes(PERMANENT_THRESHOLD + 1), NOW)).toBe('disabled');
  });

  it('resets on a success, and changes nothing for a success of a hook without failures', () => {
    expect(afterAttempt({ recent_failures: 5, disabled_until: null }, true, NOW)).toEqual(fresh);
    expect(afterAttempt(fresh, true, NOW)).toBeNull();
  });
});
