// The instance appearance (document 2, 4.14; GitLab's lib/api/appearance.rb): administrators read and change
// it. A change stores the texts in the appearance row and the uploaded images as files under the data
// directory (images.ts), which appearanceImagesRouter serves.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Caller, requireScope, requireUser, type ScopeNeed } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { forbidden, invalidParameter, notFound } from '../../core/http/errors.js';
import type { RequestBody } from '../../core/http/types.js';
import { nowIso } from '../../core/store/database.js';
import {
  checkImage,
  IMAGE_FIELDS,
  type ImageField,
  imageDirectory,
  isImageField,
  isInlineImage,
  sanitizeImageName,
  type UploadedImage,
} from './images.js';
import { type Appearance, presentAppearance } from './present.js';
import { APPEARANCE_ID, type AppearanceChanges, findAppearance, saveAppearance } from './store.js';

export type UpdateAppearanceBody = RequestBody<'updateAppearance'>;
/** The image parts of a multipart request, by field (the last part of a field given twice). */
export type UploadedImages = Partial<Record<ImageField, UploadedImage>>;

/** GitLab's `authenticated_as_admin!`: 401 without a user, then the token's scope, 403 for a non-administrator. */
function requireAdmin(caller: Caller, scope: ScopeNeed): void {
  const user = requireUser(caller);
  requireScope(caller, scope);
  if (!user.isAdmin) throw forbidden();
}

export async function getAppearance(context: ServerContext, caller: Caller): Promise<Appearance> {
  requireAdmin(caller, 'read_api');
  return presentAppearance(await findAppearance(context.db));
}

/** An image written beside its final name, moved there once the row names it. */
interface PendingImage {
  field: ImageField;
  filename: string;
  temporary: string;
}

/**
 * The image fields of the request: file parts, checked as GitLab checks them. An image field that came as
 * text (JSON, a form field, a multipart text part) is refused as Grape refuses a File parameter that is no
 * file; a null is "not given". GitLab ignores an empty file (CarrierWave caches nothing), so does this.
 */
function checkImages(body: Record<string, unknown>, files: UploadedImages): void {
  for (const field of IMAGE_FIELDS) {
    const file = files[field];
    if (file) checkImage(field, file);
    else if (body[field] !== undefined && body[field] !== null) throw invalidParameter(field);
  }
}

/** Writes each uploaded image beside its final place (nothing else sees it yet). */
async function writePending(context: ServerContext, files: UploadedImages): Promise<PendingImage[]> {
  const pending: PendingImage[] = [];
  try {
    for (const field of IMAGE_FIELDS) {
      const file = files[field];
      if (!file || file.size === 0) continue;
      const directory = imageDirectory(context.dataDir, field);
      await mkdir(directory, { recursive: true });
      const temporary = join(directory, `.upload-${randomBytes(8).toString('hex')}`);
      pending.push({ field, filename: sanitizeImageName(file.originalname), temporary });
      await writeFile(temporary, file.buffer);
    }
  } catch (error) {
    await Promise.all(pending.map((image) => rm(image.temporary, { force: true })));
    throw error;
  }
  return pending;
}

function textChanges(body: UpdateAppearanceBody): AppearanceChanges {
  const changes: AppearanceChanges = {};
  const texts = [
    'title',
    'description',
    'new_project_guidelines',
    'profile_image_guidelines',
    'header_message',
    'footer_message',
    'message_background_color',
    'message_font_color',
  ] as const;
  for (const name of texts) {
    const value = body[name];
    if (value !== undefined) changes[name] = value;
  }
  if (body.email_header_and_footer_enabled !== undefined)
    changes.email_header_and_footer_enabled = body.email_header_and_footer_enabled ? 1 : 0;
  return changes;
}

/**
 * Changes the appearance (GitLab's `current_appearance.update(declared_params)`): the given texts and
 * switches, and each uploaded image in place of the previous one. The colours' format is the spec's (the
 * validator refuses another with the field's name). The row is written in one transaction; the images are
 * written before it under temporary names and moved to their names after it, and the replaced files removed.
 */
export async function updateAppearance(
  context: ServerContext,
  caller: Caller,
  body: UpdateAppearanceBody | undefined,
  files: UploadedImages,
): Promise<Appearance> {
  requireAdmin(caller, 'api');
  const given = body ?? {};
  checkImages(given as Record<string, unknown>, files);
  const changes = textChanges(given);
  const pending = await writePending(context, files);
  for (const image of pending) changes[image.field] = image.filename;

  let previous: Awaited<ReturnType<typeof findAppearance>>;
  let saved: Awaited<ReturnType<typeof saveAppearance>>;
  try {
    ({ previous, saved } = await context.db.transaction().execute(async (trx) => ({
      previous: await findAppearance(trx),
      saved: await saveAppearance(trx, changes, nowIso()),
    })));
  } catch (error) {
    await Promise.all(pending.map((image) => rm(image.temporary, { force: true })));
    throw error;
  }
  for (const image of pending) {
    const directory = imageDirectory(context.dataDir, image.field);
    await rename(image.temporary, join(directory, image.filename));
    const replaced = previous?.[image.field];
    if (replaced && replaced !== image.filename) await rm(join(directory, replaced), { force: true });
  }
  return presentAppearance(saved);
}

export interface StoredImage {
  /** Absolute path of the file. */
  file: string;
  filename: string;
  inline: boolean;
}

/**
 * The stored image at `/uploads/-/system/appearance/<field>/1/<filename>`: to anyone (the sign-in page shows
 * them before anyone signs in), 404 unless it is the field's current image.
 */
export async function findAppearanceImage(
  context: ServerContext,
  field: string,
  id: string,
  filename: string,
): Promise<StoredImage> {
  if (!isImageField(field) || id !== String(APPEARANCE_ID)) throw notFound();
  const row = await findAppearance(context.db);
  const current = row?.[field];
  if (!current || current !== filename) throw notFound();
  return {
    file: join(imageDirectory(context.dataDir, field), current),
    filename: current,
    inline: isInlineImage(current),
  };
}
