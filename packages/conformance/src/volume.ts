// How much of the exhaustive volumes a run sends. `pnpm test` (the README's test command) checks every kind
// of input with a sample that still covers each value somewhere in the run; `pnpm test:full` sets
// COLLAB_CONFORMANCE_FULL=1 and sends all of them (every spelling of every parameter, the long fuzz).

/** The exhaustive volumes are asked for. */
export const FULL = process.env.COLLAB_CONFORMANCE_FULL === '1';

/**
 * All of `values` in a full run; else `count` of them, spread evenly over the list from an offset that
 * `key` decides, so that different keys (parameters) take different values and the run covers them all.
 */
export function sampleOf<T>(values: readonly T[], key: string, count: number): readonly T[] {
  if (FULL || values.length <= count) return values;
  let offset = 0;
  for (const char of key) offset = (offset * 31 + char.charCodeAt(0)) % values.length;
  const step = values.length / count;
  return Array.from(
    { length: count },
    (_, i) => values[(offset + Math.floor(i * step)) % values.length] as T,
  );
}
