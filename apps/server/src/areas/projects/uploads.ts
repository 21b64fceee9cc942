// Files uploaded to a project for Markdown links (document 2, "Upload result"; GitLab's UploadService and
// FileUploader): stored under the data directory at `uploads/<project id>/<secret>/<filename>` and served
// back at `/<namespace>/<project>/uploads/<secret>/<filename>` to whoever may see the project.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { AccessLevel, projectFullPath, resolveProject } from '../../core/access/access.js';
import { type Caller, requireScope, requireUser } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { ApiError, forbidden, missingParameter, notFound } from '../../core/http/errors.js';
import type { Schemas } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import { uploadsDirectory } from './deletion.js';
import { findUploadRow, insertUpload } from './store.js';

/** The uploaded part, as multer (inside the validator) leaves it. */
export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

// GitLab's FileUploader lists: images, videos and audio are embedded (`![…](…)`), other files linked.
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];
const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov', 'webm', 'ogv'];
const AUDIO_EXTENSIONS = ['mp3', 'oga', 'ogg', 'spx', 'wav'];
const EMBEDDED = new Set([...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS, ...AUDIO_EXTENSIONS]);

const SECRET = /^[0-9a-f]{32}$/;

/**
 * A file name that is safe as one path segment and in a URL (CarrierWave's sanitizing, which GitLab uses):
 * the last segment of the client's name, characters other than letters, digits, `.`, `-`, `+` and `_` as `_`,
 * a name of dots only prefixed with `_`, an empty one `unnamed`; at most 255 characters, keeping the extension.
 */
export function sanitizeFilename(name: string): string {
  let safe = (name.replace(/\\/g, '/').split('/').at(-1) ?? '').replace(/[^A-Za-z0-9.\-+_]/g, '_');
  if (/^\.+$/.test(safe)) safe = `_${safe}`;
  if (safe === '') safe = 'unnamed';
  if (safe.length > 255) {
    const extension = extname(safe).slice(0, 16);
    safe = safe.slice(0, 255 - extension.length) + extension;
  }
  return safe;
}

function isEmbedded(filename: string): boolean {
  return EMBEDDED.has(extname(filename).slice(1).toLowerCase());
}

/** The upload result: `alt` is the name without extension for embedded files, the name otherwise. */
export function presentUpload(fullPath: string, secret: string, filename: string): Schemas['ProjectUpload'] {
  const embedded = isEmbedded(filename);
  const alt = embedded ? filename.slice(0, filename.length - extname(filename).length) : filename;
  const url = `/uploads/${secret}/${filename}`;
  return {
    alt,
    url,
    full_path: `/${fullPath}${url}`,
    markdown: `${embedded ? '!' : ''}[${alt.replace(/]/g, '\\]')}](${url})`,
  };
}

/**
 * Stores an uploaded file. GitLab's `:upload_file`: anyone signed in who acts as a guest of the project (any
 * signed-in user of a public or internal project); an archived project takes none (403).
 */
export async function uploadProjectFile(
  context: ServerContext,
  caller: Caller,
  projectId: string,
  file: UploadedFile | undefined,
): Promise<Schemas['ProjectUpload']> {
  const user = requireUser(caller);
  requireScope(caller, 'api');
  const access = await resolveProject(context.db, caller, projectId);
  const { project } = access;
  if (project.visibility === 'private' && access.accessLevel < AccessLevel.GUEST) throw forbidden();
  if (project.archived === 1) throw forbidden();
  if (!file) throw missingParameter('file');
  if (file.size > context.instance.maxAttachmentSizeBytes) {
    throw new ApiError(413, { message: '413 Request Entity Too Large' });
  }
  const filename = sanitizeFilename(file.originalname);
  const secret = randomBytes(16).toString('hex');
  const directory = join(uploadsDirectory(context, project.id), secret);
  await mkdir(directory, { recursive: true });
  try {
    await writeFile(join(directory, filename), file.buffer);
    await insertUpload(context.db, {
      projectId: project.id,
      secret,
      filename,
      size: file.size,
      uploadedBy: user.id,
      at: nowIso(),
    });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return presentUpload(projectFullPath(access), secret, filename);
}

export interface StoredUpload {
  /** Absolute path of the file. */
  file: string;
  filename: string;
  /** Whether browsers may show it inline (images, videos, audio); others are served as attachments. */
  inline: boolean;
}

/**
 * The file of `/<project path>/uploads/<secret>/<filename>` for the caller: 404 when the project is not
 * visible to them or no such upload exists (the name must match the stored one exactly).
 */
export async function findUpload(
  context: ServerContext,
  caller: Caller,
  projectPath: string,
  secret: string,
  filename: string,
): Promise<StoredUpload> {
  if (!SECRET.test(secret)) throw notFound();
  const { project } = await resolveProject(context.db, caller, projectPath);
  const row = await findUploadRow(context.db, project.id, secret);
  if (!row || row.filename !== filename) throw notFound();
  return {
    file: join(uploadsDirectory(context, project.id), secret, row.filename),
    filename: row.filename,
    inline: isEmbedded(row.filename),
  };
}
