// The command line and environment of the server: every flag and its variable, and the usage text.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig, USAGE, wantsHelp } from './config.js';
import { MAIN } from './workerServer.testSupport.js';

const FLAGS = [
  '--port',
  '--host',
  '--data-dir',
  '--database-url',
  '--seed',
  '--workers',
  '--storages',
  '--validate-responses',
  '--no-access-log',
];
const VARIABLES = [
  'PORT',
  'DATABASE_URL',
  'HOST',
  'COLLAB_DATA_DIR',
  'COLLAB_SEED',
  'COLLAB_WORKERS',
  'COLLAB_STORAGES',
  'COLLAB_VALIDATE_RESPONSES',
  'COLLAB_ACCESS_LOG',
];

describe('readConfig', () => {
  it('reads every flag, and its variable when the flag is not given', () => {
    const flags = readConfig(
      ['--port', '0', '--host', '0.0.0.0', '--data-dir', '/d', '--seed', 'demo', '--workers', '3'],
      {},
    );
    expect(flags).toMatchObject({ port: 0, host: '0.0.0.0', dataDir: '/d', seed: 'demo', workers: 3 });
    const variables = readConfig([], {
      PORT: '4000',
      HOST: '::1',
      COLLAB_DATA_DIR: '/e',
      COLLAB_STORAGES: 'a,b,c',
      COLLAB_VALIDATE_RESPONSES: 'true',
      COLLAB_WORKERS: '2',
    });
    expect(variables).toMatchObject({
      port: 4000,
      host: '::1',
      dataDir: '/e',
      storageNames: ['a', 'b', 'c'],
      validateResponses: true,
      workers: 2,
    });
    expect(readConfig(['--port', '5000'], { PORT: '4000' }).port).toBe(5000);
  });

  it('prints the access log unless --no-access-log or COLLAB_ACCESS_LOG=false (or 0) says not to', () => {
    expect(readConfig([], {}).accessLog).toBe(true);
    expect(readConfig([], { COLLAB_ACCESS_LOG: 'true' }).accessLog).toBe(true);
    expect(readConfig(['--no-access-log'], {}).accessLog).toBe(false);
    expect(readConfig([], { COLLAB_ACCESS_LOG: 'false' }).accessLog).toBe(false);
    expect(readConfig([], { COLLAB_ACCESS_LOG: '0' }).accessLog).toBe(false);
  });

  it('refuses an unknown flag, a bad port or worker count with a ConfigError', () => {
    expect(() => readConfig(['--bogus'], {})).toThrow(ConfigError);
    expect(() => readConfig(['--port', 'abc'], {})).toThrow(ConfigError);
    expect(() => readConfig([], { PORT: '70000' })).toThrow(ConfigError);
    expect(() => readConfig(['--workers', '0'], {})).toThrow(ConfigError);
  });

  it('reads a PostgreSQL URL from --database-url or DATABASE_URL; none means the SQLite file', () => {
    const url = 'postgres://collab:secret@db.example:5432/collab';
    expect(readConfig(['--database-url', url], {}).databaseUrl).toBe(url);
    expect(readConfig([], { DATABASE_URL: 'postgresql://h/d' }).databaseUrl).toBe('postgresql://h/d');
    expect(readConfig(['--database-url', url], { DATABASE_URL: 'postgres://other/x' }).databaseUrl).toBe(url);
    expect(readConfig([], {}).databaseUrl).toBeUndefined();
    expect(readConfig([], { DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(() => readConfig(['--database-url', 'mysql://h/d'], {})).toThrow(ConfigError);
    expect(() => readConfig([], { DATABASE_URL: '/var/db.sqlite3' })).toThrow(ConfigError);
  });

  it('documents every flag and variable in the usage text', () => {
    for (const name of [...FLAGS, ...VARIABLES, '--write-conformance-config', '--help'])
      expect(USAGE, name).toContain(name);
    expect(wantsHelp(['--port', '1', '--help'])).toBe(true);
    expect(wantsHelp(['--port', '1'])).toBe(false);
  });
});

describe('the server command', () => {
  // From source, as the worker tests start it.
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8' });

  it('prints the usage for --help and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(USAGE);
  });

  it('says what is wrong with a command line in one line, without a stack, and exits 2', () => {
    const result = run('--no-such-flag');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("collab-server: Unknown option '--no-such-flag'");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the access log of the server command', () => {
  /** Starts the server on an empty data directory, sends one request with a token in its query, stops it. */
  async function outputAroundOneRequest(...flags: string[]): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'collab-access-log-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, '--port', '0', '--workers', '1', '--data-dir', dataDir, ...flags],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
      });
      const response = await fetch(`${origin}/api/v4/user?private_token=not-a-real-token&per_page=2`);
      expect(response.status).toBe(401);
      await response.arrayBuffer();
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
    return output;
  }

  it('prints one line per request, with the token filtered, by default', { timeout: 60_000 }, async () => {
    const output = await outputAroundOneRequest();
    expect(output).toMatch(/^\S+Z GET \/api\/v4\/user\?private_token=\[FILTERED\]&per_page=2 401 [\d.]+ms$/m);
    expect(output).not.toContain('not-a-real-token');
  });

  it('prints none with --no-access-log', { timeout: 60_000 }, async () => {
    const output = await outputAroundOneRequest('--no-access-log');
    expect(output).toContain('listening on');
    expect(output).not.toContain('GET /api/v4/user');
  });
});
