// The reference server writes the conformance configuration for its demo data
// (`--write-conformance-config FILE`, apps/server/src/conformanceConfig.ts): the file must be exactly this
// package's demoConfig() at the address the server listens on, so `collab-conformance run --config FILE`
// against it needs nothing else.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { configFromEnvironment, demoConfig } from '../src/config.js';

/** apps/server, found through the workspace dependency on @collab/server. */
const SERVER_DIR = dirname(dirname(createRequire(import.meta.url).resolve('@collab/server')));
const work = mkdtempSync(join(tmpdir(), 'collab-conformance-config-'));
let child: ChildProcess | undefined;

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

it('is the demo configuration at the address the server listens on', { timeout: 180_000 }, async () => {
  const file = join(work, 'conformance.json');
  const args = ['--import', 'tsx', 'src/main.ts', '--port', '0', '--workers', '1', '--seed', 'demo'];
  args.push('--data-dir', join(work, 'data'), '--write-conformance-config', file);
  child = spawn(process.execPath, args, { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no config written:\n${output}`)), 170_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // The config is written right after the welcome lines name the address.
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v4[\s\S]*Conformance config: /.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child?.stdout?.on('data', read);
    child?.stderr?.on('data', read);
    child?.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  const written = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  expect(written).toEqual(demoConfig(origin));
  // And the suite reads it as a configuration file.
  expect(configFromEnvironment({ COLLAB_CONFORMANCE_CONFIG: file })).toEqual(demoConfig(origin));
});
