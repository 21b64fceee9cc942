// Types of curl.mjs, for the TypeScript tests that check it.
import type { SpecLike } from './samples.mjs';

/** Every operation's curl sample by operationId, and each problem of one: `<operationId>: <problem>`. */
export declare function curlSamplesFor(
  spec: SpecLike,
  clientSamples?: Map<string, string>,
): { samples: Map<string, string>; errors: string[] };
