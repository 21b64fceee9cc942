#!/usr/bin/env node
// The `collab-conformance` command: a dispatcher over subcommands. A subcommand is a module of this folder
// exporting `summary` (one line for --help), `usage` and `main(args): Promise<number>` (the exit code);
// adding one is one line in COMMANDS.
import { readFileSync } from 'node:fs';

interface Command {
  summary: string;
  main(args: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  run: () => import('./run.js'),
  fuzz: () => import('./fuzz.js'),
  proxy: () => import('./proxy.js'),
  diff: () => import('./diff.js'),
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function help(): Promise<string> {
  const lines = ['Usage: collab-conformance <command> [options]', '', 'Commands:'];
  for (const [name, load] of Object.entries(COMMANDS))
    lines.push(`  ${name.padEnd(8)} ${(await load()).summary}`);
  lines.push('', 'Run `collab-conformance <command> --help` for its options.', '');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`collab-conformance: unknown command "${name}"\n\n${await help()}`);
    return 2;
  }
  return (await load()).main(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `collab-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
