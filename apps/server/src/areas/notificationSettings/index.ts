// Notification settings (document 2, section 4.12): the caller's global level and address, and their level
// and custom events per group and project.
import type { Area } from '../../core/area.js';
import { notificationSettingsHandlers } from './routes.js';

export const notificationSettingsArea: Area = {
  name: 'notificationSettings',
  handlers: notificationSettingsHandlers,
};
