// Routes of the notification settings area: the caller's global settings and those of a group or project.
import { Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { pathParam } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  getGlobalSettings,
  getSourceSettings,
  updateGlobalSettings,
  updateSourceSettings,
} from './service.js';

export function notificationSettingsRouter(context: ServerContext): Router {
  const router = Router();

  router.get('/notification_settings', async (_req, res) => {
    const body: ResponseBody<'getGlobalNotificationSettings', 200> = await getGlobalSettings(
      context,
      callerOf(res),
    );
    res.json(body);
  });

  router.put('/notification_settings', async (req, res) => {
    const body: ResponseBody<'updateGlobalNotificationSettings', 200> = await updateGlobalSettings(
      context,
      callerOf(res),
      req.body as RequestBody<'updateGlobalNotificationSettings'> | undefined,
    );
    res.json(body);
  });

  for (const [prefix, type] of [
    ['/groups', 'Group'],
    ['/projects', 'Project'],
  ] as const) {
    router.get(`${prefix}/:id/notification_settings`, async (req, res) => {
      const body: ResponseBody<'getGroupNotificationSettings' | 'getProjectNotificationSettings', 200> =
        await getSourceSettings(context, callerOf(res), type, pathParam(req, 'id'));
      res.json(body);
    });

    router.put(`${prefix}/:id/notification_settings`, async (req, res) => {
      const body: ResponseBody<'updateGroupNotificationSettings' | 'updateProjectNotificationSettings', 200> =
        await updateSourceSettings(
          context,
          callerOf(res),
          type,
          pathParam(req, 'id'),
          req.body as RequestBody<'updateProjectNotificationSettings'> | undefined,
        );
      res.json(body);
    });
  }

  return router;
}
