// A small local HTTP server for the client's unit tests: each test says what it answers, and reads back
// the requests it got.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse, index: number) => void;

export interface ScriptedServer {
  baseUrl: string;
  seen: SeenRequest[];
  /** What the server answers from now on (`index` counts the requests since). */
  answer(handler: Handler): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  let handler: Handler = (_request, response) => response.writeHead(500).end();
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      };
      seen.push(request);
      handler(request, res, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    answer(next) {
      seen.length = 0;
      handler = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `statuses` in turn (with `headers`), then 200 with `[]`. */
export function statusesThenOk(statuses: number[], headers: Record<string, string> = {}): Handler {
  return (_request, response, index) => {
    const status = statuses[index];
    if (status === undefined) response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
    else
      response
        .writeHead(status, { 'Content-Type': 'application/json', ...headers })
        .end('{"message":"busy"}');
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
