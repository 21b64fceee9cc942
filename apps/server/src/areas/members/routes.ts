// Routes of the members area: direct and inherited members of groups and projects, lists and single reads.
// `/members/all` comes before `/members/:user_id` (an integer) in every declaration.
import { type Request, Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ResponseBody } from '../../core/http/types.js';
import { getMember, listMembers, type MemberListQuery, type SourceType } from './service.js';

/**
 * `user_id` is an integer (the validator has checked it). One beyond the safe integers, or below 1, names
 * nobody: 0, which no user has, so the answer is the 404 of a missing member.
 */
function userIdOf(req: Request): number {
  const value = Number(pathParam(req, 'user_id'));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

type ListOperation =
  | 'listProjectMembers'
  | 'listProjectMembersIncludingInherited'
  | 'listGroupMembers'
  | 'listGroupMembersIncludingInherited';
type GetOperation =
  | 'getProjectMember'
  | 'getProjectMemberIncludingInherited'
  | 'getGroupMember'
  | 'getGroupMemberIncludingInherited';

export function membersRouter(context: ServerContext): Router {
  const router = Router();

  for (const [prefix, type] of [
    ['/projects', 'Project'],
    ['/groups', 'Group'],
  ] as const satisfies readonly (readonly [string, SourceType])[]) {
    for (const [suffix, includeInherited] of [
      ['/members/all', true],
      ['/members', false],
    ] as const) {
      router.get(`${prefix}/:id${suffix}`, async (req, res) => {
        const page = readPage(req);
        const { items, total } = await listMembers(
          context,
          callerOf(res),
          type,
          pathParam(req, 'id'),
          includeInherited,
          req.query as MemberListQuery,
          page,
          originOf(req),
        );
        setPaginationHeaders(req, res, page, total);
        const body: ResponseBody<ListOperation, 200> = items;
        res.json(body);
      });

      router.get(`${prefix}/:id${suffix}/:user_id`, async (req, res) => {
        const body: ResponseBody<GetOperation, 200> = await getMember(
          context,
          callerOf(res),
          type,
          pathParam(req, 'id'),
          includeInherited,
          userIdOf(req),
          originOf(req),
        );
        res.json(body);
      });
    }
  }

  return router;
}
