// `collab-conformance diff`: the same seeded sequence of requests to a reference server and a target
// (src/diff/engine.ts), every difference printed with its request and a curl command; exit code 1 on any
// difference, 2 on a usage or configuration error.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ConformanceConfig, configFromEnvironment, demoConfig } from '../config.js';
import type { Difference } from '../diff/engine.js';
import { baseUrlOption, ONLY_HELP, onlyMatcher, UsageError } from './options.js';

export const summary = 'send one seeded sequence of requests to a reference and a target, report differences';

export const usage = `Usage: collab-conformance diff --reference URL --target URL [options]

Sends one seeded sequence of requests generated from the spec (valid and invalid requests, requests without
a token, methods a path lacks) to the reference server and to the target, one at a time, the reference
first, and reports every difference of the target's answers: the status, the headers the spec documents
for the answer (and the media type), and the body's shape (its keys and JSON types; values such as ids and
dates are not compared). Both servers should hold the same data (the reference server's demo data, say:
--seed demo). The same seed sends the same requests. Exits with 1 on any difference or when nothing was
sent, 2 on a usage error.

Options:
  --reference URL      the reference server, with or without /api/v4
  --target URL         the server compared with it, with or without /api/v4
  --config FILE        JSON: a token per role and the fixtures, the same on both servers (see
                       ConformanceConfig; default: the reference server's demo data)
  --token TOKEN        send this token (an administrator's) instead of the config's
  --seed N             the seed, an integer (default: a random one, printed)
  --requests N         requests to each server (default 300)
  --only PATTERN       only some operations: ${ONLY_HELP.replace(/^ {24}/gm, '                       ')}
  --report-json FILE   write the differences as JSON
  -h, --help           this text
`;

interface Options {
  reference: string;
  target: string;
  config: ConformanceConfig;
  token: string | undefined;
  seed: number;
  requests: number;
  only: string | undefined;
  reportJson: string | undefined;
}

function parse(args: string[]): Options | 'help' {
  const { values } = parseArgs({
    args,
    options: {
      reference: { type: 'string' },
      target: { type: 'string' },
      config: { type: 'string' },
      token: { type: 'string' },
      seed: { type: 'string' },
      requests: { type: 'string' },
      only: { type: 'string' },
      'report-json': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  if (!values.reference || !values.target)
    throw new UsageError('--reference URL and --target URL are required');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UsageError('--seed must be a non-negative integer');
  const requests = Number(values.requests ?? 300);
  if (!Number.isInteger(requests) || requests < 1)
    throw new UsageError('--requests must be a positive integer');
  const reference = baseUrlOption(values.reference, '--reference');
  let config: ConformanceConfig | undefined = demoConfig(reference);
  if (values.config) {
    try {
      config = configFromEnvironment({ COLLAB_CONFORMANCE_CONFIG: values.config });
    } catch (error) {
      throw new UsageError(`cannot use --config ${values.config}: ${(error as Error).message}`);
    }
    if (!config) throw new UsageError(`cannot use --config ${values.config}`);
  }
  return {
    reference,
    target: baseUrlOption(values.target, '--target'),
    config,
    token: values.token,
    seed,
    requests,
    only: values.only,
    reportJson: values['report-json'],
  };
}

export function formatDifference(difference: Difference): string {
  return [
    `DIFFERENCE (${difference.kind}) step ${difference.step}, ${difference.operationId}: ${difference.method} ${difference.path}`,
    `  request: ${difference.request}`,
    ...difference.details.map((detail) => `  - ${detail}`),
    `  reproduce: ${difference.curl}`,
  ].join('\n');
}

export async function main(args: string[]): Promise<number> {
  let options: Options;
  try {
    const parsed = parse(args);
    if (parsed === 'help') {
      process.stdout.write(usage);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    process.stderr.write(`collab-conformance diff: ${error.message}\n\n${usage}`);
    return 2;
  }
  // The names the requests create carry a suffix derived from the seed (src/run.ts): one seed, one sequence,
  // the same names on both servers. Set before the generators load.
  process.env.COLLAB_CONFORMANCE_RUN = `d${options.seed.toString(36)}`;
  const { diff } = await import('../diff/engine.js');
  const out = process.stdout;
  out.write(
    `collab-conformance diff: reference ${options.reference}, target ${options.target}, seed ${options.seed},` +
      ` ${options.requests} requests${options.only ? `, only "${options.only}"` : ''}\n`,
  );
  const report = await diff({
    reference: options.reference,
    target: options.target,
    config: options.config,
    token: options.token,
    seed: options.seed,
    requests: options.requests,
    only: options.only ? onlyMatcher(options.only) : undefined,
    onDifference: (difference) => out.write(`${formatDifference(difference)}\n`),
  });
  const operations = Object.keys(report.perOperation).length;
  const byKind: Record<string, number> = {};
  for (const difference of report.differences) byKind[difference.kind] = (byKind[difference.kind] ?? 0) + 1;
  out.write(
    `${report.requests} requests to each server and ${report.linkRequests} more along the links of what they created ` +
      `(${operations} operations) in ${report.seconds.toFixed(1)} s, seed ${report.seed}: ` +
      `${report.differences.length} difference(s)${
        report.differences.length > 0
          ? ` (${Object.entries(byKind)
              .map(([kind, count]) => `${kind} ${count}`)
              .join(', ')})`
          : ''
      }\n`,
  );
  if (options.reportJson) writeFileSync(options.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  if (report.requests === 0) {
    process.stderr.write('collab-conformance diff: nothing was sent (does --only select any operation?)\n');
    return 1;
  }
  return report.differences.length > 0 ? 1 : 0;
}
