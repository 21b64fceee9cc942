// GitLab answers JSON with `Content-Type: application/json`, without a charset (JSON is UTF-8 by definition,
// RFC 8259), and a widely used client's tests compare the header exactly. Express's `res.json` hands
// `res.send` a string, and `res.send` adds `; charset=utf-8` to the type of every string body. The app's
// `res.json` (set once on the app's response prototype, Express's documented `app.response`) hands it the
// JSON as bytes instead when the type is JSON's: `res.send` keeps the type of a byte body as it is, and
// computes its length and ETag as for the string. Other types (SCIM's `application/scim+json`) keep
// Express's behaviour.
import type { Express, Response } from 'express';

/** JSON's type, as set by hand or by `res.type('json')` (which adds the charset). */
const JSON_TYPE = /^application\/json(;\s*charset=utf-8)?$/i;

export function jsonWithoutCharset(app: Express): void {
  const response = app.response as Response;
  response.json = function json(this: Response, value: unknown) {
    // Express's own serialisation with the app's defaults (no replacer, no spaces, no escaping).
    const body = JSON.stringify(value) as string | undefined;
    const type = this.get('Content-Type');
    if (type !== undefined && !JSON_TYPE.test(type)) return this.send(body);
    this.setHeader('Content-Type', 'application/json');
    return this.send(body === undefined ? body : Buffer.from(body));
  };
}
