// How long the server keeps an idle connection open for the client's next request.
import type { Server } from 'node:http';

/**
 * Idle connections are kept longer than clients and proxies keep theirs (undici, which Node's fetch uses,
 * 4 s; browsers and load balancers up to 60 s), so that the server never closes a connection at the moment a
 * client sends its next request on it. With Node's default of 5 s, a loaded machine answered such requests
 * with ECONNRESET (the spec-driven tests saw it on a busy two-core machine).
 */
export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = 65_000;
  // Must exceed keepAliveTimeout, or Node closes a kept connection waiting for the next request's headers.
  server.headersTimeout = 66_000;
}
