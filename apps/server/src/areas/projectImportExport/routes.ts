// Routes of project export and import (document 1, section 4.7).
import type { Request } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { originOf, pathParam } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody, Schemas, WithoutNulls } from '../../core/http/types.js';
import { projectExportDownload, projectExportStatus, scheduleProjectExport } from './exports.js';
import { importProject, projectImportStatus } from './imports.js';

/** A file part of a multipart request, as multer (inside express-openapi-validator) leaves it in `req.files`. */
interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
}

/** The uploaded `file` part. The validator puts an empty string in `req.body.file` for it; a text field named `file` is no file. */
function uploadedFile(req: ApiRequest, field: string): Buffer | undefined {
  const files = (req as Request & { files?: UploadedFile[] }).files;
  return Array.isArray(files) ? files.find((file) => file.fieldname === field)?.buffer : undefined;
}

export function projectExportImportHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  handlers.scheduleProjectExport = async (req, res) => {
    const body = req.body as RequestBody<'scheduleProjectExport'> | undefined;
    await scheduleProjectExport(context, callerOf(res), pathParam(req, 'id'), body);
    const accepted: ResponseBody<'scheduleProjectExport', 202> = { message: '202 Accepted' };
    res.status(202).json(accepted);
  };

  handlers.getProjectExportStatus = async (req, res) => {
    const status: ResponseBody<'getProjectExportStatus', 200> = await projectExportStatus(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      originOf(req),
    );
    res.json(status);
  };

  handlers.downloadProjectExport = async (req, res) => {
    const { file, filename } = await projectExportDownload(context, callerOf(res), pathParam(req, 'id'));
    // The name holds only path characters (letters, digits, `_`, `-`, `.`), so it needs no escaping.
    const headers = {
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${filename}"`,
    };
    await new Promise<void>((resolve, reject) => {
      // Once the archive is streaming, a failure (the client went away) has no one left to answer.
      res.sendFile(file, { headers }, (error) => (error && !res.headersSent ? reject(error) : resolve()));
    });
  };

  handlers.importProject = async (req, res) => {
    const body = req.body as WithoutNulls<Omit<Schemas['ImportProjectRequest'], 'file'>>;
    const result: ResponseBody<'importProject', 201> = await importProject(context, callerOf(res), {
      file: uploadedFile(req, 'file'),
      path: body.path,
      namespace: body.namespace,
      name: body.name,
      overwrite: body.overwrite,
      override_params: body.override_params,
    });
    res.status(201).json(result);
  };

  handlers.getProjectImportStatus = async (req, res) => {
    const status: ResponseBody<'getProjectImportStatus', 200> = await projectImportStatus(
      context,
      callerOf(res),
      pathParam(req, 'id'),
    );
    res.json(status);
  };

  return handlers;
}
