// Polls until the server's background work (exports, imports, mirrors, jobs) has reached a state.

/** The pause between two reads. */
const INTERVAL_MS = 50;

/**
 * Calls `read` every 50 ms until `done` holds for its value; fails with the last value after as many reads
 * as `quietMs` holds pauses. Bounded by that count, not by the clock: on a loaded machine each read takes
 * longer and the background work with it, so the wait stretches as the work does (a 20 s deadline failed a
 * restart test at load 35).
 */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  quietMs = 20_000,
): Promise<T> {
  const reads = Math.ceil(quietMs / INTERVAL_MS);
  for (let count = 1; ; count++) {
    const value = await read();
    if (done(value)) return value;
    if (count >= reads)
      throw new Error(
        `gave up waiting for ${what} after ${count} reads; last value: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}
