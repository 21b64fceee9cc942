// The Notification settings operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get the global notification settings */
export async function getGlobalNotificationSettings() {
  // #region getGlobalNotificationSettings
  const settings = await unwrap(api.GET('/notification_settings'));
  console.log(settings.level, settings.notification_email);
  // #endregion
}

/** Update the global notification settings */
export async function updateGlobalNotificationSettings() {
  // #region updateGlobalNotificationSettings
  const settings = await unwrap(
    api.PUT('/notification_settings', {
      body: { level: 'disabled', new_note: true },
    }),
  );
  console.log(settings.level, settings.notification_email);
  // #endregion
}

/** Get the notification settings of a group */
export async function getGroupNotificationSettings() {
  // #region getGroupNotificationSettings
  try {
    const settings = await unwrap(
      api.GET('/groups/{id}/notification_settings', {
        params: { path: { id: 'my-group' } },
      }),
    );
    console.log(settings.level);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update the notification settings of a group */
export async function updateGroupNotificationSettings() {
  // #region updateGroupNotificationSettings
  const settings = await unwrap(
    api.PUT('/groups/{id}/notification_settings', {
      params: { path: { id: 'my-group' } },
      body: { level: 'disabled', new_note: true },
    }),
  );
  console.log(settings.level);
  // #endregion
}

/** Get the notification settings of a project */
export async function getProjectNotificationSettings() {
  // #region getProjectNotificationSettings
  try {
    const settings = await unwrap(
      api.GET('/projects/{id}/notification_settings', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(settings.level);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Update the notification settings of a project */
export async function updateProjectNotificationSettings() {
  // #region updateProjectNotificationSettings
  const settings = await unwrap(
    api.PUT('/projects/{id}/notification_settings', {
      params: { path: { id: 'my-group/my-project' } },
      body: { level: 'disabled', new_note: true },
    }),
  );
  console.log(settings.level);
  // #endregion
}
