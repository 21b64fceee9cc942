// The appearance's images (GitLab's AttachmentUploader and FaviconUploader on the Appearance model): what an
// upload must be, where it is stored under the data directory and the URL it is served at.
//
// GitLab keeps them at `uploads/-/system/appearance/<field>/<appearance id>/<file name>` and answers that path
// (relative to the server's root) as the image's URL; the same layout here, under the data directory.
import { extname, join } from 'node:path';
import { ApiError } from '../../core/http/errors.js';
import { APPEARANCE_ID } from './store.js';

export const IMAGE_FIELDS = ['logo', 'header_logo', 'favicon'] as const;
export type ImageField = (typeof IMAGE_FIELDS)[number];

export function isImageField(name: string): name is ImageField {
  return (IMAGE_FIELDS as readonly string[]).includes(name);
}

/** A file part of a multipart request, as multer (inside the validator) leaves it in `req.files`. */
export interface UploadedImage {
  originalname: string;
  buffer: Buffer;
  size: number;
}

/** GitLab's `file_size: { maximum: 1.megabyte }` on the appearance's images. */
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** FaviconUploader's allow-lists: the extension, and the content type read from the file's bytes. */
const FAVICON_EXTENSIONS = ['png', 'ico'];
const FAVICON_CONTENT_TYPES = ['image/png', 'image/vnd.microsoft.icon'];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The content type of a file by its first bytes, as CarrierWave reads it for the allow-list (never the type the
 * client claims): PNG and ICO, the other common images, text, and otherwise `application/octet-stream`.
 */
export function sniffContentType(bytes: Buffer): string {
  if (bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return 'image/png';
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  if (
    bytes.length >= 6 &&
    bytes.readUInt16LE(0) === 0 &&
    bytes.readUInt16LE(2) === 1 &&
    bytes.readUInt16LE(4) > 0
  )
    return 'image/vnd.microsoft.icon';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  const sample = bytes.subarray(0, 512);
  if (sample.length > 0 && !sample.includes(0)) return 'text/plain';
  return 'application/octet-stream';
}

/** GitLab's model error for one field: `{"message": {"favicon": ["…"]}}` (render_validation_error!, 400). */
function fieldError(field: ImageField, text: string): ApiError {
  return new ApiError(400, { message: { [field]: [text] } });
}

/** Refuses an image GitLab's validations and uploaders refuse, with their words. */
export function checkImage(field: ImageField, file: UploadedImage): void {
  if (field === 'favicon') {
    const extension = extname(file.originalname).slice(1).toLowerCase();
    if (!FAVICON_EXTENSIONS.includes(extension)) {
      throw fieldError(
        field,
        `You are not allowed to upload "${extension}" files, allowed types: ${FAVICON_EXTENSIONS.join(', ')}`,
      );
    }
    const contentType = sniffContentType(file.buffer);
    if (!FAVICON_CONTENT_TYPES.includes(contentType)) {
      throw fieldError(
        field,
        `You are not allowed to upload ${contentType} files, allowed types: ${FAVICON_CONTENT_TYPES.join(', ')}`,
      );
    }
  }
  if (file.size > MAX_IMAGE_BYTES) throw fieldError(field, 'is too big (should be at most 1 MB)');
}

/**
 * A file name that is safe as one path segment and in a URL (CarrierWave's sanitizing): the last segment of
 * the client's name, characters other than letters, digits, `.`, `-`, `+` and `_` as `_`; a name of dots
 * only prefixed with `_`, an empty one `unnamed`; at most 255 characters, keeping the extension.
 */
export function sanitizeImageName(name: string): string {
  let safe = (name.replace(/\\/g, '/').split('/').at(-1) ?? '').replace(/[^A-Za-z0-9.\-+_]/g, '_');
  if (/^\.+$/.test(safe)) safe = `_${safe}`;
  if (safe === '') safe = 'unnamed';
  if (safe.length > 255) {
    const extension = extname(safe).slice(0, 16);
    safe = safe.slice(0, 255 - extension.length) + extension;
  }
  return safe;
}

/** The image's URL, relative to the server's root as GitLab answers it. */
export function imageUrl(field: ImageField, filename: string): string {
  return `/uploads/-/system/appearance/${field}/${APPEARANCE_ID}/${filename}`;
}

/** The directory holding a field's stored image. */
export function imageDirectory(dataDir: string, field: ImageField): string {
  return join(dataDir, 'uploads', '-', 'system', 'appearance', field, String(APPEARANCE_ID));
}

const INLINE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];

/** Whether browsers may show a stored file inline (images); anything else is served as an attachment. */
export function isInlineImage(filename: string): boolean {
  return INLINE_EXTENSIONS.includes(extname(filename).slice(1).toLowerCase());
}
