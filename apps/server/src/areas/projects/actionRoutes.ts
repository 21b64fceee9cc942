// Routes of the project actions (document 2, 4.2): archive, unarchive, delete, restore, uploads and shares;
// and, outside the API, the uploaded files at `/<namespace>/<project>/uploads/<secret>/<filename>`.
import { type Request, type Response, Router } from 'express';
import type { ProjectAccess } from '../../core/access/access.js';
import type { Caller } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { authenticate, callerOf } from '../../core/http/auth.js';
import { notFound } from '../../core/http/errors.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { integerPathParam, originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, ResponseBody } from '../../core/http/types.js';
import { deleteProject, restoreProject, setProjectArchived } from './lifecycle.js';
import { presentFullProject } from './present.js';
import { type ShareRequest, shareProjectWithGroup, unshareProjectWithGroup } from './sharing.js';
import { findUpload, type UploadedFile, uploadProjectFile } from './uploads.js';

/** The uploaded `file` part (core/http/multipart.ts keeps it in `req.files`); a text field is no file. */
function uploadedFile(req: ApiRequest, field: string): UploadedFile | undefined {
  const files = (req as Request & { files?: (UploadedFile & { fieldname: string })[] }).files;
  return Array.isArray(files) ? files.find((file) => file.fieldname === field) : undefined;
}

/** The handlers of the project actions. */
export function projectActionHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};
  /** The project in the full form, as the caller sees it. */
  const full = (req: ApiRequest, caller: Caller, access: ProjectAccess) =>
    presentFullProject(context, caller, access.project, originOf(req));

  handlers.archiveProject = async (req, res) => {
    const caller = callerOf(res);
    const access = await setProjectArchived(context, caller, pathParam(req, 'id'), true);
    const body: ResponseBody<'archiveProject', 201> = await full(req, caller, access);
    res.status(201).json(body);
  };

  handlers.unarchiveProject = async (req, res) => {
    const caller = callerOf(res);
    const access = await setProjectArchived(context, caller, pathParam(req, 'id'), false);
    const body: ResponseBody<'unarchiveProject', 201> = await full(req, caller, access);
    res.status(201).json(body);
  };

  handlers.deleteProject = async (req, res) => {
    await deleteProject(context, callerOf(res), pathParam(req, 'id'));
    const body: ResponseBody<'deleteProject', 202> = { message: '202 Accepted' };
    res.status(202).json(body);
  };

  handlers.restoreProject = async (req, res) => {
    const caller = callerOf(res);
    const access = await restoreProject(context, caller, pathParam(req, 'id'));
    const body: ResponseBody<'restoreProject', 201> = await full(req, caller, access);
    res.status(201).json(body);
  };

  handlers.uploadProjectFile = async (req, res) => {
    const body: ResponseBody<'uploadProjectFile', 201> = await uploadProjectFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      uploadedFile(req, 'file'),
    );
    res.status(201).json(body);
  };

  handlers.shareProjectWithGroup = async (req, res) => {
    const body: ResponseBody<'shareProjectWithGroup', 201> = await shareProjectWithGroup(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      req.body as ShareRequest,
    );
    res.status(201).json(body);
  };

  handlers.unshareProjectWithGroup = async (req, res) => {
    await unshareProjectWithGroup(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      integerPathParam(req, 'group_id'),
    );
    res.status(204).end();
  };

  return handlers;
}

/**
 * The uploaded files, on the server's root as GitLab serves them (`full_path` of an upload result): to whoever
 * may see the project (a token as for the API), with the Content-Type of the file's extension. Only images,
 * videos and audio are shown inline; other files are attachments, so an uploaded page never runs as the site.
 */
export function projectUploadsRouter(context: ServerContext): Router {
  const router = Router();
  router.get(
    '/*projectPath/uploads/:secret/:filename',
    authenticate(context.db),
    async (req, res: Response) => {
      const segments = (req.params as { projectPath?: string[] }).projectPath ?? [];
      // A project path has its namespace and its own path (a bare ID would find a project by ID).
      if (segments.length < 2) throw notFound();
      const upload = await findUpload(
        context,
        callerOf(res),
        segments.join('/'),
        String(req.params.secret),
        String(req.params.filename),
      );
      const headers = {
        'X-Content-Type-Options': 'nosniff',
        // The name holds only letters, digits and `.-+_` (sanitizeFilename): no quoting needed.
        'Content-Disposition': `${upload.inline ? 'inline' : 'attachment'}; filename="${upload.filename}"`,
      };
      await new Promise<void>((resolve, reject) => {
        res.sendFile(upload.file, { headers }, (error) =>
          error && !res.headersSent ? reject(error) : resolve(),
        );
      });
    },
  );
  return router;
}
