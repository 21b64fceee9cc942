// Avatars of groups and projects (GitLab's AvatarUploader, Avatarable): what an upload must be, how a write
// asks for one, where it is stored and the URL it is served at. GitLab keeps an avatar at
// `uploads/-/system/<group|project>/avatar/<id>/<file name>` and answers that path (on the server's root)
// as `avatar_url`; the same layout here, under the data directory.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ServerContext } from '../../core/context.js';
import { ApiError } from '../../core/http/errors.js';
import type { ApiRequest } from '../../core/http/types.js';
import { sanitizeImageName, sniffContentType, type UploadedImage } from '../appearance/index.js';

export type { UploadedImage } from '../appearance/index.js';

/** What carries an avatar. */
export type AvatarOwner = 'group' | 'project';

/** GitLab's `file_size: { maximum: 200.kilobytes }` on avatars. */
export const MAX_AVATAR_BYTES = 200 * 1024;

/** AvatarUploader's allow-list of extensions (images only). */
const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];

/** The avatar's URL, relative to the server's root. */
export function avatarUrl(owner: AvatarOwner, id: number, filename: string): string {
  return `/uploads/-/system/${owner}/avatar/${id}/${filename}`;
}

export function avatarDirectory(dataDir: string, owner: AvatarOwner, id: number): string {
  return join(dataDir, 'uploads', '-', 'system', owner, 'avatar', String(id));
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

/** The `avatar` file part of a multipart request (core/http/multipart.ts keeps it in `req.files`). */
export function avatarFileOf(req: ApiRequest): UploadedImage | undefined {
  const files = (req as ApiRequest & { files?: (UploadedImage & { fieldname: string })[] }).files;
  return Array.isArray(files) ? files.find((file) => file.fieldname === 'avatar') : undefined;
}

/** What a write asks of the avatar: a new file, its removal, or nothing. */
export type AvatarChange = UploadedImage | 'remove' | undefined;

/**
 * Reads `avatar` of a write: a file part is a new avatar (a refused file adds GitLab's message under
 * `avatar` to `errors`); an empty value removes the avatar where `emptyRemoves` (an update); other text is
 * a 400 (GitLab's `avatar is invalid`, its WorkhorseFile type).
 */
export function avatarChange(
  given: unknown,
  file: UploadedImage | undefined,
  errors: Record<string, string[]>,
  emptyRemoves: boolean,
): AvatarChange {
  if (file === undefined) {
    if (given === undefined || given === null) return undefined;
    if (emptyRemoves && given === '') return 'remove';
    throw new ApiError(400, { error: 'avatar is invalid' });
  }
  const refusal = avatarRefusal(file);
  if (refusal) errors.avatar = [refusal];
  return file;
}

/** Stores the avatar (replacing the owner's previous one) and returns its file name. */
export async function storeAvatar(
  context: ServerContext,
  owner: AvatarOwner,
  id: number,
  file: UploadedImage,
): Promise<string> {
  const filename = sanitizeImageName(file.originalname);
  const directory = avatarDirectory(context.dataDir, owner, id);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, filename), file.buffer);
  return filename;
}

/** Removes the avatars of these groups or projects. */
export async function removeAvatars(
  context: ServerContext,
  owner: AvatarOwner,
  ids: readonly number[],
): Promise<void> {
  await Promise.all(
    ids.map((id) => rm(avatarDirectory(context.dataDir, owner, id), { recursive: true, force: true })),
  );
}
