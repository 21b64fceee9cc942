// Routes of the notification settings area: the caller's global settings and those of a group or project.

import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  getGlobalSettings,
  getSourceSettings,
  updateGlobalSettings,
  updateSourceSettings,
} from './service.js';

export function notificationSettingsHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.getGlobalNotificationSettings = async (_req, res) => {
    const body: ResponseBody<'getGlobalNotificationSettings', 200> = await getGlobalSettings(
      context,
      callerOf(res),
    );
    res.json(body);
  };

  handlers.updateGlobalNotificationSettings = async (req, res) => {
    const body: ResponseBody<'updateGlobalNotificationSettings', 200> = await updateGlobalSettings(
      context,
      callerOf(res),
      req.body as RequestBody<'updateGlobalNotificationSettings'> | undefined,
    );
    res.json(body);
  };

  const getSettings = async (type: 'Group' | 'Project', req: ApiRequest, res: Response) => {
    const body: ResponseBody<'getGroupNotificationSettings' | 'getProjectNotificationSettings', 200> =
      await getSourceSettings(context, callerOf(res), type, pathParam(req, 'id'));
    res.json(body);
  };
  const updateSettings = async (type: 'Group' | 'Project', req: ApiRequest, res: Response) => {
    const body: ResponseBody<'updateGroupNotificationSettings' | 'updateProjectNotificationSettings', 200> =
      await updateSourceSettings(
        context,
        callerOf(res),
        type,
        pathParam(req, 'id'),
        req.body as RequestBody<'updateProjectNotificationSettings'> | undefined,
      );
    res.json(body);
  };

  handlers.getGroupNotificationSettings = (req, res) => getSettings('Group', req, res);
  handlers.getProjectNotificationSettings = (req, res) => getSettings('Project', req, res);
  handlers.updateGroupNotificationSettings = (req, res) => updateSettings('Group', req, res);
  handlers.updateProjectNotificationSettings = (req, res) => updateSettings('Project', req, res);

  return handlers;
}
