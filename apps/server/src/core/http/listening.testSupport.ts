// A test's own Express app, listening on a free port of the loopback interface.
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

export async function listenOnFreePort(app: Express): Promise<Listening> {
  const server = await new Promise<ReturnType<Express['listen']>>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
