// Types of samples.mjs, for the TypeScript tests that check it.

export declare const SAMPLE_LANG: string;
export declare const SAMPLE_LABEL: string;
export declare const CURL_LANG: string;
export declare const CURL_LABEL: string;

export interface Region {
  file: string;
  line: number;
  name: string;
  lines: string[];
}

export interface SpecLike {
  paths?: Record<string, Record<string, unknown> | undefined>;
}

export declare function readRegions(dir: string): { regions: Region[]; errors: string[] };

export declare function operationsOf(
  spec: SpecLike,
): { operationId: string; method: string; path: string; operation: Record<string, unknown> }[];

export declare function samplesFor(
  spec: SpecLike,
  regions: Region[],
): { samples: Map<string, string>; errors: string[] };

export declare function withCodeSamples<Spec extends SpecLike>(
  spec: Spec,
  samples: Map<string, string>,
  curlSamples?: Map<string, string>,
): Spec;
