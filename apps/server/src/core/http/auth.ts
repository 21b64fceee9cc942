// Resolves the caller from the PRIVATE-TOKEN header or the private_token query parameter.
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, type Caller, callerForToken } from '../access/caller.js';
import type { Db } from '../store/database.js';

export function readToken(req: Request): string | undefined {
  const header = req.get('PRIVATE-TOKEN');
  if (header) return header;
  const query = new URL(req.originalUrl, 'http://x').searchParams.get('private_token');
  return query ?? undefined;
}

export function authenticate(db: Db) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const token = readToken(req);
      res.locals.caller = token ? await callerForToken(db, token) : ANONYMOUS;
      next();
    } catch (error) {
      next(error);
    }
  };
}

export function callerOf(res: Response): Caller {
  return (res.locals.caller as Caller | undefined) ?? ANONYMOUS;
}
