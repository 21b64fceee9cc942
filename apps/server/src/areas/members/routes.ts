// Routes of the members area: direct and inherited members of groups and projects, lists and single reads;
// adding, changing and removing direct members.

import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { readPage, setPaginationHeaders } from '../../core/http/pagination.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, ResponseBody } from '../../core/http/types.js';
import { getMember, listMembers, type MemberListQuery, type SourceType } from './service.js';
import {
  type AddMemberBody,
  addMember,
  type EditMemberBody,
  editMember,
  type RemoveMemberQuery,
  removeMember,
} from './write.js';

/**
 * `user_id` is an integer (the validator has checked it). One beyond the safe integers, or below 1, names
 * nobody: 0, which no user has, so the answer is the 404 of a missing member.
 */
function userIdOf(req: ApiRequest): number {
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

export function membersHandlers(context: ServerContext): OperationHandlers {
  const list = async (type: SourceType, includeInherited: boolean, req: ApiRequest, res: Response) => {
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
  };
  const get = async (type: SourceType, includeInherited: boolean, req: ApiRequest, res: Response) => {
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
  };

  const add = async (type: SourceType, req: ApiRequest, res: Response) => {
    const body: ResponseBody<'addGroupMember' | 'addProjectMember', 201> = await addMember(
      context,
      callerOf(res),
      type,
      pathParam(req, 'id'),
      req.body as AddMemberBody,
      originOf(req),
    );
    res.status(201).json(body);
  };
  const edit = async (type: SourceType, req: ApiRequest, res: Response) => {
    const body: ResponseBody<'editGroupMember' | 'editProjectMember', 200> = await editMember(
      context,
      callerOf(res),
      type,
      pathParam(req, 'id'),
      userIdOf(req),
      req.body as EditMemberBody,
      originOf(req),
    );
    res.json(body);
  };
  const remove = async (type: SourceType, req: ApiRequest, res: Response) => {
    await removeMember(
      context,
      callerOf(res),
      type,
      pathParam(req, 'id'),
      userIdOf(req),
      req.query as RemoveMemberQuery,
    );
    res.status(204).end();
  };

  return {
    addProjectMember: (req, res) => add('Project', req, res),
    editProjectMember: (req, res) => edit('Project', req, res),
    removeProjectMember: (req, res) => remove('Project', req, res),
    addGroupMember: (req, res) => add('Group', req, res),
    editGroupMember: (req, res) => edit('Group', req, res),
    removeGroupMember: (req, res) => remove('Group', req, res),
    listProjectMembers: (req, res) => list('Project', false, req, res),
    listProjectMembersIncludingInherited: (req, res) => list('Project', true, req, res),
    getProjectMember: (req, res) => get('Project', false, req, res),
    getProjectMemberIncludingInherited: (req, res) => get('Project', true, req, res),
    listGroupMembers: (req, res) => list('Group', false, req, res),
    listGroupMembersIncludingInherited: (req, res) => list('Group', true, req, res),
    getGroupMember: (req, res) => get('Group', false, req, res),
    getGroupMemberIncludingInherited: (req, res) => get('Group', true, req, res),
  };
}
