// Avatars of groups and projects (GitLab v4): the groups and projects areas read, store and remove them
// through this module (it has no operations of its own); app.ts mounts avatarsRouter, which serves them at
// GitLab's `/uploads/-/system/<group|project>/avatar/<id>/<file name>`.
export {
  type AvatarChange,
  type AvatarOwner,
  avatarChange,
  avatarDirectory,
  avatarFileOf,
  avatarRefusal,
  avatarUrl,
  MAX_AVATAR_BYTES,
  removeAvatars,
  storeAvatar,
  type UploadedImage,
} from './avatars.js';
export { avatarsRouter } from './routes.js';
