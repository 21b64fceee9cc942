// Handlers of the appearance area: GET and PUT /application/appearance under the API, and (outside it, on the
// server's root as GitLab serves them) the stored images at /uploads/-/system/appearance/<field>/1/<file>.
import { type Response, Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { pathParam } from '../../core/http/request.js';
import type { ApiRequest, ResponseBody } from '../../core/http/types.js';
import { isImageField, type UploadedImage } from './images.js';
import {
  findAppearanceImage,
  getAppearance,
  type UpdateAppearanceBody,
  type UploadedImages,
  updateAppearance,
} from './service.js';

/** The image parts of a multipart request (core/http/multipart.ts keeps them in `req.files`). */
function uploadedImages(req: ApiRequest): UploadedImages {
  const files = (req as ApiRequest & { files?: (UploadedImage & { fieldname: string })[] }).files;
  const images: UploadedImages = {};
  for (const file of Array.isArray(files) ? files : []) {
    if (isImageField(file.fieldname)) images[file.fieldname] = file;
  }
  return images;
}

export function appearanceHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.getAppearance = async (_req, res) => {
    const body: ResponseBody<'getAppearance', 200> = await getAppearance(context, callerOf(res));
    res.json(body);
  };

  handlers.updateAppearance = async (req, res) => {
    const body: ResponseBody<'updateAppearance', 200> = await updateAppearance(
      context,
      callerOf(res),
      req.body as UpdateAppearanceBody | undefined,
      uploadedImages(req),
    );
    res.json(body);
  };

  return handlers;
}

/**
 * The stored images, to anyone, with the Content-Type of the file's extension; only images are shown inline,
 * anything else is an attachment, so an uploaded page never runs as the site.
 */
export function appearanceImagesRouter(context: ServerContext): Router {
  const router = Router();
  router.get('/uploads/-/system/appearance/:field/:id/:filename', async (req, res: Response) => {
    const image = await findAppearanceImage(
      context,
      pathParam(req, 'field'),
      pathParam(req, 'id'),
      pathParam(req, 'filename'),
    );
    const headers = {
      'X-Content-Type-Options': 'nosniff',
      // The name holds only letters, digits and `.-+_` (sanitizeImageName): no quoting needed.
      'Content-Disposition': `${image.inline ? 'inline' : 'attachment'}; filename="${image.filename}"`,
    };
    await new Promise<void>((resolve, reject) => {
      res.sendFile(image.file, { headers }, (error) =>
        error && !res.headersSent ? reject(error) : resolve(),
      );
    });
  });
  return router;
}
