// Resolves the caller from a personal access token, where GitLab reads one (`find_personal_access_token`): the
// private_token query parameter, then the PRIVATE-TOKEN header, then `Authorization: Bearer`; then, for an
// administrator who asks, the user it acts as (`sudo`). The token's use is recorded (`last_used_at`) when due.
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, type Caller, callerForToken, knownCallerForToken, sudoCaller } from '../access/caller.js';
import { recordTokenUse, tokenUseDue } from '../access/tokenUsage.js';
import type { Db } from '../store/database.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The first non-empty value of a query parameter of a URL, as URLSearchParams reads it. A query that has
 * neither the name nor a percent-encoded character cannot carry the parameter: nearly every request is
 * answered without parsing its query here (the names are read on every request, `sudo` included).
 */
export function queryParameter(url: string, name: string): string | undefined {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return undefined;
  const fragmentStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, fragmentStart < 0 ? undefined : fragmentStart);
  if (!query.includes(name) && !query.includes('%')) return undefined;
  return new URLSearchParams(query).get(name) || undefined;
}

function queryValue(req: Request, name: string): string | undefined {
  return queryParameter(req.originalUrl, name);
}

export function readToken(req: Request): string | undefined {
  return (
    queryValue(req, 'private_token') ||
    req.get('PRIVATE-TOKEN') ||
    BEARER.exec(req.get('Authorization') ?? '')?.[1] ||
    undefined
  );
}

/** The user an administrator acts as: the sudo query parameter, else the Sudo header (GitLab's order). */
function readSudo(req: Request): string | undefined {
  return queryValue(req, 'sudo') || req.get('Sudo') || undefined;
}

export function authenticate(db: Db) {
  const lookUp = async (
    token: string | undefined,
    known: Caller | undefined,
    sudo: string | undefined,
    res: Response,
    next: NextFunction,
  ): Promise<void> => {
    try {
      const caller = known ?? (token ? await callerForToken(db, token) : ANONYMOUS);
      // The token that authenticated, whoever the request then acts as.
      if (caller.tokenId !== undefined && tokenUseDue(db, caller.tokenId))
        await recordTokenUse(db, caller.tokenId);
      res.locals.caller = sudo === undefined ? caller : await sudoCaller(db, caller, sudo);
      next();
    } catch (error) {
      next(error);
    }
  };
  // A known token (nearly every request) is answered at once; only a lookup, or the write of a token's use
  // (once per token and ten minutes), waits for the database.
  return (req: Request, res: Response, next: NextFunction): void => {
    let caller: Caller | undefined;
    let token: string | undefined;
    let sudo: string | undefined;
    try {
      token = readToken(req);
      sudo = readSudo(req);
      caller = token ? knownCallerForToken(db, token) : ANONYMOUS;
    } catch (error) {
      next(error);
      return;
    }
    const useDue = caller?.tokenId !== undefined && tokenUseDue(db, caller.tokenId);
    if (caller === undefined || sudo !== undefined || useDue) {
      void lookUp(token, caller, sudo, res, next);
      return;
    }
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  return (res.locals.caller as Caller | undefined) ?? ANONYMOUS;
}
