// Background work that competes with requests for the one thread (the validators' warm-up) waits for a quiet
// moment: no request in flight and none for a while. A client's first requests after a start are then answered
// at once instead of queuing behind compilations that another operation may never need.
import type { RequestHandler } from 'express';

export interface IdleGate {
  /** Counts the requests in flight; put it first, so that it sees every request. */
  middleware: RequestHandler;
  /**
   * Resolves once no request is in flight and none has begun or ended for `quietMilliseconds`; always after
   * a turn of the event loop at least, so that a caller awaiting it in a loop lets requests in.
   */
  whenIdle(quietMilliseconds: number): Promise<void>;
  /** Counts the quiet time from now, as if a request had just ended (a server that has just begun listening). */
  markActivity(): void;
}

// process.hrtime: monotonic, as performance.now(), whose first use loads a Node.js module during the start.
export function idleGate(now: () => number = () => Number(process.hrtime.bigint()) / 1e6): IdleGate {
  let inFlight = 0;
  let lastActivity = now();
  const middleware: RequestHandler = (_req, res, next) => {
    inFlight++;
    lastActivity = now();
    // 'close' follows a finished response as well as an aborted one, once per response.
    res.once('close', () => {
      inFlight--;
      lastActivity = now();
    });
    next();
  };
  const whenIdle = async (quietMilliseconds: number): Promise<void> => {
    for (;;) {
      // The sockets are read in the loop's poll phase, before setImmediate's: a request that came meanwhile
      // has passed the middleware by then. Without this turn, work made of promises alone (a validator's
      // warm-up) would keep every request waiting until it ended.
      await new Promise((resolve) => setImmediate(resolve));
      const quietFor = now() - lastActivity;
      if (inFlight === 0 && quietFor >= quietMilliseconds) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(quietMilliseconds - quietFor, 10)));
    }
  };
  const markActivity = (): void => {
    lastActivity = now();
  };
  return { middleware, whenIdle, markActivity };
}
