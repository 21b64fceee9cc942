// The JSON body parser of the API. GitLab (Grape) reads a JSON body that is not a hash as no parameters, and a
// widely used Go client sends the body `null` whenever its caller passes no options: a `null` body is read
// as `{}`, on every write. Other bare values (a string, a number, `true`) stay refused, as a strict JSON
// parser refuses them, since no operation takes one.
import express, { type RequestHandler } from 'express';
import { badRequest } from './errors.js';

export const JSON_MEDIA_TYPES = ['application/json', 'application/scim+json'];

export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, type: JSON_MEDIA_TYPES, strict: false });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const body: unknown = req.body;
      if (body === null) req.body = {};
      else if (body !== undefined && typeof body !== 'object')
        return next(badRequest('the request body must be a JSON object'));
      next();
    });
}
