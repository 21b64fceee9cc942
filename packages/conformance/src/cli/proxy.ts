// `collab-conformance proxy`: a validating proxy between any client and any server (src/validatingProxy.ts).
// Each violation of the spec is logged with its operation and a curl command; it runs until interrupted.
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ProxyViolation, startValidatingProxy, type UncheckedExchange } from '../validatingProxy.js';
import { baseUrlOption, ONLY_HELP, onlyMatcher } from './options.js';

export const summary = 'forward live traffic to a server and log every exchange that breaks the spec';

export const usage = `Usage: collab-conformance proxy --base-url URL --port N [options]

Listens on --port, forwards every request to the server at --base-url unchanged and checks each exchange
against the spec: the request (a documented operation, required query parameters, content type, required
JSON fields) and the response (documented status, content type, headers, body). Point a client at
http://HOST:PORT instead of the server. Each violation is printed with its operation and a curl command
that repeats the request against the server; a path the spec does not describe (/docs, say) is printed as
outside the spec, not checked. Stops on Ctrl-C, printing the counts; exits with 1 when there was a
violation or when nothing was checked.

Options:
  --base-url URL       the server, with or without /api/v4 (--upstream URL: the same)
  --only PATTERN       check only some operations: ${ONLY_HELP.replace(/^ {24}/gm, '                       ')}
  --port N             the port to listen on (0: any free port, printed)
  --host HOST          the address to listen on (default 127.0.0.1)
  --log-json FILE      also append each violation to FILE as one JSON line
  --verbose            print every exchange, not only violations
  -h, --help           this text
`;

export function formatViolation(violation: ProxyViolation): string {
  const path = new URL(violation.url).pathname;
  return [
    `VIOLATION (${violation.side}) ${violation.operationId ?? 'no operation'}: ${violation.method} ${path} → ${violation.status}`,
    ...violation.problems.map((problem) => `  - ${problem}`),
    `  reproduce: ${violation.curl}`,
  ].join('\n');
}

export function formatUnchecked(exchange: UncheckedExchange): string {
  const path = new URL(exchange.url).pathname;
  const what =
    exchange.reason === 'outside the spec' ? 'OUTSIDE THE SPEC' : `not selected (${exchange.operationId})`;
  return `${what}: ${exchange.method} ${path} → ${exchange.status}`;
}

export async function main(args: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  let upstream: string;
  try {
    values = parse(args);
    const given = values['base-url'] ?? values.upstream;
    upstream =
      given === undefined ? '' : baseUrlOption(given, values['base-url'] ? '--base-url' : '--upstream');
  } catch (error) {
    process.stderr.write(`collab-conformance proxy: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const port = Number(values.port);
  if (!upstream || values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`collab-conformance proxy: --base-url URL and --port N are required\n\n${usage}`);
    return 2;
  }
  const logJson = values['log-json'];
  const proxy = await startValidatingProxy({
    upstream,
    only: values.only ? onlyMatcher(values.only) : undefined,
    onUnchecked: (exchange) => process.stdout.write(`${formatUnchecked(exchange)}\n`),
    port,
    host: values.host,
    onViolation: (violation) => {
      process.stdout.write(`${formatViolation(violation)}\n`);
      if (logJson) appendFileSync(logJson, `${JSON.stringify(violation)}\n`);
    },
    onExchange: values.verbose
      ? (exchange) =>
          process.stdout.write(
            `${exchange.method} ${new URL(exchange.url).pathname} → ${exchange.status} (${exchange.operationId ?? 'no operation'})\n`,
          )
      : undefined,
  });
  process.stdout.write(`collab-conformance proxy: listening on ${proxy.url}, forwarding to ${upstream}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.close();
  const { exchanges, violations, outside, notSelected } = proxy.counts;
  const checked = exchanges - outside - notSelected;
  process.stdout.write(
    `collab-conformance proxy: ${exchanges} exchanges, ${violations} violations; ${checked} checked,` +
      ` ${outside} outside the spec, ${notSelected} not selected\n`,
  );
  if (checked === 0) process.stderr.write('collab-conformance proxy: nothing was checked\n');
  return violations > 0 || checked === 0 ? 1 : 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      upstream: { type: 'string' },
      only: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'log-json': { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
}
