// `collab-conformance proxy`: a validating proxy between any client and any server (src/validatingProxy.ts).
// Each violation of the spec is logged with its operation and a curl command; it runs until interrupted.
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ProxyViolation, startValidatingProxy } from '../validatingProxy.js';

export const summary = 'forward live traffic to a server and log every exchange that breaks the spec';

export const usage = `Usage: collab-conformance proxy --upstream URL --port N [options]

Listens on --port, forwards every request to --upstream unchanged and checks each exchange against the
spec: the request (a documented operation, required query parameters, content type, required JSON fields)
and the response (documented status, content type, headers, body). Point a client at
http://HOST:PORT instead of the server. Each violation is printed with its operation and a curl command
that repeats the request against the upstream server. Stops on Ctrl-C, printing the counts.

Options:
  --upstream URL       the server, without /api/v4
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

export async function main(args: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(args);
  } catch (error) {
    process.stderr.write(`collab-conformance proxy: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const port = Number(values.port);
  if (
    !values.upstream ||
    !/^https?:\/\//.test(values.upstream) ||
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535
  ) {
    process.stderr.write(`collab-conformance proxy: --upstream URL and --port N are required\n\n${usage}`);
    return 2;
  }
  const logJson = values['log-json'];
  const proxy = await startValidatingProxy({
    upstream: values.upstream,
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
  process.stdout.write(
    `collab-conformance proxy: listening on ${proxy.url}, forwarding to ${values.upstream}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.close();
  process.stdout.write(
    `collab-conformance proxy: ${proxy.counts.exchanges} exchanges, ${proxy.counts.violations} violations\n`,
  );
  return proxy.counts.violations > 0 ? 1 : 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'log-json': { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
}
