// A web server on 127.0.0.1 that records the uploads the server sends (export archives to `upload[url]`).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  /** Where to upload: a path and a query, as a pre-signed URL has. */
  url: string;
  received: {
    method: string;
    url: string;
    contentType: string | undefined;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }[];
  close(): Promise<void>;
}

/** Starts a receiver; `answer` decides each response's status (by request number). */
export async function startReceiver(
  answer: (index: number) => number | Promise<number> = () => 200,
): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = received.length;
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'],
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      void Promise.resolve(answer(index)).then((status) => res.writeHead(status).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/upload/archive.tar.gz?signature=abc`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
