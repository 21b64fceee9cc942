// GitLab answers JSON with `Content-Type: application/json`, without a charset (JSON is UTF-8 by definition,
// RFC 8259), and a widely used client's tests compare the header exactly. Express's `res.json` and
// `res.send` add `; charset=utf-8` to every string body; this step takes it off JSON answers just before the
// head is written (Node writes the head through `writeHead`, also for an implicit head).
import type { RequestHandler, Response } from 'express';

const WITH_CHARSET = /^application\/json;\s*charset=utf-8$/i;

function dropJsonCharset(res: Response): void {
  const type = res.getHeader('content-type');
  if (typeof type === 'string' && WITH_CHARSET.test(type)) res.setHeader('content-type', 'application/json');
}

export const jsonWithoutCharset: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    dropJsonCharset(this);
    return writeHead.apply(this, args);
  } as Response['writeHead'];
  next();
};
