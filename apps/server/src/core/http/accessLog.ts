// The access log: one line per answered request (time, method, path, status, duration), written when the
// response has been sent. Query values of parameters that carry secrets are replaced, as GitLab's logs filter
// them, so that a log can be shared without the tokens that were used.
import type { RequestHandler } from 'express';

/** Parameter names whose values never reach the log (`private_token`, `access_token`, `password`, ...). */
const SECRET_PARAMETER = /token|password|secret|key/i;

export const FILTERED = '[FILTERED]';

/** `originalUrl` with the values of secret-carrying query parameters replaced by [FILTERED]. */
export function loggablePath(originalUrl: string): string {
  const queryStart = originalUrl.indexOf('?');
  if (queryStart < 0) return originalUrl;
  const pairs = originalUrl
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_PARAMETER.test(decodedOrRaw(rawName)) ? `${rawName}=${FILTERED}` : pair;
    });
  return `${originalUrl.slice(0, queryStart)}?${pairs.join('&')}`;
}

function decodedOrRaw(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** One line: `2026-11-28T01:02:03.456Z GET /api/v4/projects?private_token=[FILTERED] 200 3.1ms`. */
export function accessLogLine(
  at: Date,
  method: string,
  originalUrl: string,
  status: number,
  ms: number,
): string {
  return `${at.toISOString()} ${method} ${loggablePath(originalUrl)} ${status} ${ms.toFixed(1)}ms\n`;
}

/** Middleware writing each request's line once its response is finished (or its connection closed early). */
export function accessLog(write: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const at = new Date();
    // 'close' follows a finished response as well as an aborted one, once per response.
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // A connection closed before the answer was sent shows as 499, nginx's word for it.
      const status = res.writableFinished ? res.statusCode : 499;
      write(accessLogLine(at, req.method, req.originalUrl, status, ms));
    });
    next();
  };
}

export interface BatchedLines {
  /** Queues a line; the queued lines are written together once the event loop turns. */
  write(line: string): void;
  /** Writes what is queued now (at exit: a line is never lost to a stop). */
  flush(): void;
}

/**
 * Lines written together, once per turn of the event loop: under load, one write to standard output carries
 * the lines of every request answered in that turn. A write per line made the log the dearest step of a cheap
 * read (standard output is synchronous when it is a pipe or a file).
 */
export function batchedLines(writeChunk: (chunk: string) => void): BatchedLines {
  let queued: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (queued.length === 0) return;
    const chunk = queued.join('');
    queued = [];
    writeChunk(chunk);
  };
  return {
    write(line) {
      queued.push(line);
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    flush,
  };
}
