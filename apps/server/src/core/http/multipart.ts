// Multipart bodies (project uploads, imports, appearance images), read by multer before the request readers
// and the validator: parameterCarriers and grapeParameters read the form fields, and the validator checks
// them with the files standing in as the empty text of their fields (a `format: binary` property).
import type { RequestHandler } from 'express';
import multer from 'multer';
import { ApiError } from './errors.js';

const LIMITS = { fileSize: 512 * 1024 * 1024 };

function isMultipart(contentType: string | undefined): boolean {
  return contentType?.toLowerCase().startsWith('multipart/form-data') === true;
}

/** Reads a multipart request's fields into `req.body` and its files into `req.files`; other requests pass by. */
export function multipartBodies(): RequestHandler {
  const readAll = multer({ limits: LIMITS }).any();
  return (req, res, next) => {
    if (!isMultipart(req.headers['content-type'])) return next();
    readAll(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) return next(multipartError(error));
      const files = Array.isArray(req.files) ? req.files : [];
      const body = req.body as Record<string, unknown>;
      for (const file of files) {
        const known = body[file.fieldname];
        body[file.fieldname] = known === undefined ? '' : [...(Array.isArray(known) ? known : [known]), ''];
      }
      next();
    });
  };
}

/** A file over the limit is 413; any other failure to read the body is the client's malformed body. */
function multipartError(error: unknown): ApiError {
  if (error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE')
    return new ApiError(413, { message: '413 Request Entity Too Large' });
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiError(400, { error: `the multipart body is malformed: ${reason}` });
}
