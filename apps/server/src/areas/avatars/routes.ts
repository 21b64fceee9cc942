// The avatars of groups and projects, on the server's root as GitLab serves them (`avatar_url`): to whoever
// may see the group or project (a token as for the API), as stored images only.
import { type Response, Router } from 'express';
import { resolveGroup, resolveProject } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { authenticate, callerOf } from '../../core/http/auth.js';
import { notFound } from '../../core/http/errors.js';
import { type AvatarOwner, avatarDirectory } from './avatars.js';

/** The owner's stored avatar file name when the caller may see the owner (404 otherwise), else null. */
async function storedAvatar(
  context: ServerContext,
  caller: Caller,
  owner: AvatarOwner,
  id: string,
): Promise<string | null> {
  if (owner === 'group') return (await resolveGroup(context.db, caller, id)).group.avatar;
  return (await resolveProject(context.db, caller, id)).project.avatar;
}

export function avatarsRouter(context: ServerContext): Router {
  const router = Router();
  router.get(
    '/uploads/-/system/:owner/avatar/:id/:filename',
    authenticate(context.db),
    async (req, res: Response, next) => {
      const owner = String(req.params.owner);
      if (owner !== 'group' && owner !== 'project') return next();
      const id = String(req.params.id);
      if (!/^\d+$/.test(id)) throw notFound();
      const filename = String(req.params.filename);
      if ((await storedAvatar(context, callerOf(res), owner, id)) !== filename) throw notFound();
      const headers = { 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': 'inline' };
      await new Promise<void>((resolve, reject) => {
        res.sendFile(
          `${avatarDirectory(context.dataDir, owner, Number(id))}/${filename}`,
          { headers },
          (error) => (error && !res.headersSent ? reject(error) : resolve()),
        );
      });
    },
  );
  return router;
}
