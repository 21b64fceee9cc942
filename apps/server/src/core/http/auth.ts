// Resolves the caller from the PRIVATE-TOKEN header or the private_token query parameter.
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, type Caller, callerForToken, knownCallerForToken } from '../access/caller.js';
import type { Db } from '../store/database.js';

export function readToken(req: Request): string | undefined {
  const header = req.get('PRIVATE-TOKEN');
  if (header) return header;
  const query = new URL(req.originalUrl, 'http://x').searchParams.get('private_token');
  return query ?? undefined;
}

export function authenticate(db: Db) {
  const lookUp = async (token: string, res: Response, next: NextFunction): Promise<void> => {
    try {
      res.locals.caller = await callerForToken(db, token);
      next();
    } catch (error) {
      next(error);
    }
  };
  // A known token (nearly every request) is answered at once; only a lookup waits for the database.
  return (req: Request, res: Response, next: NextFunction): void => {
    let caller: Caller | undefined;
    let token: string | undefined;
    try {
      token = readToken(req);
      caller = token ? knownCallerForToken(db, token) : ANONYMOUS;
    } catch (error) {
      next(error);
      return;
    }
    if (caller === undefined && token) {
      void lookUp(token, res, next);
      return;
    }
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  return (res.locals.caller as Caller | undefined) ?? ANONYMOUS;
}
