// For tests of the server with several worker processes: start it as `pnpm start` does (from source), and send
// each request on a connection of its own, so that the primary hands it to the next worker in turn.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

export interface Answer {
  status: number;
  body: string;
}

/**
 * Starts the primary with `workers` worker processes and the demo data; resolves once it listens. With
 * `databaseUrl`, on that PostgreSQL database (several such servers on one database are several instances).
 */
export async function startWorkerServer(
  dataDir: string,
  workers: number,
  databaseUrl?: string,
): Promise<{ primary: ChildProcess; origin: string }> {
  const primary = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      '--workers',
      String(workers),
      '--seed',
      'demo',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    primary.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    primary.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { primary, origin };
}

/** One request with a JSON body (if any) and a token, on a connection of its own. */
export function callOnNewConnection(
  origin: string,
  method: string,
  path: string,
  body: unknown,
  token: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      {
        method,
        agent: false,
        headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}
