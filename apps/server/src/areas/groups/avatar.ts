// A group's avatar (GitLab's AvatarUploader on the group): what an upload must be, where it is stored and the
// URL it is served at. GitLab keeps it at `uploads/-/system/group/avatar/<group id>/<file name>` and answers
// that path (on the server's root) as `avatar_url`; the same layout here, under the data directory.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ServerContext } from '../../core/context.js';
import { sanitizeImageName, sniffContentType, type UploadedImage } from '../appearance/index.js';

export type { UploadedImage } from '../appearance/index.js';

/** GitLab's `file_size: { maximum: 200.kilobytes }` on avatars. */
export const MAX_AVATAR_BYTES = 200 * 1024;

/** AvatarUploader's allow-list of extensions (images only). */
const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];

/** The avatar's URL, relative to the server's root. */
export function avatarUrl(groupId: number, filename: string): string {
  return `/uploads/-/system/group/avatar/${groupId}/${filename}`;
}

export function avatarDirectory(dataDir: string, groupId: number): string {
  return join(dataDir, 'uploads', '-', 'system', 'group', 'avatar', String(groupId));
}

/** Why GitLab refuses the file as an avatar, in its words, or undefined when it takes it. */
export function avatarRefusal(file: UploadedImage): string | undefined {
  const extension = extname(file.originalname).slice(1).toLowerCase();
  if (!AVATAR_EXTENSIONS.includes(extension))
    return `You are not allowed to upload "${extension}" files, allowed types: ${AVATAR_EXTENSIONS.join(', ')}`;
  const contentType = sniffContentType(file.buffer);
  if (!contentType.startsWith('image/')) return `You are not allowed to upload ${contentType} files`;
  if (file.size > MAX_AVATAR_BYTES) return 'is too big (should be at most 200 KiB)';
  return undefined;
}

/** Stores the avatar (replacing the group's previous one) and returns its file name. */
export async function storeAvatar(
  context: ServerContext,
  groupId: number,
  file: UploadedImage,
): Promise<string> {
  const filename = sanitizeImageName(file.originalname);
  const directory = avatarDirectory(context.dataDir, groupId);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, filename), file.buffer);
  return filename;
}

/** Removes the avatars of removed groups. */
export async function removeAvatars(context: ServerContext, groupIds: readonly number[]): Promise<void> {
  await Promise.all(
    groupIds.map((id) => rm(avatarDirectory(context.dataDir, id), { recursive: true, force: true })),
  );
}
