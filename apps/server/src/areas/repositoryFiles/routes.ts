// Routes of the repository files area: read, HEAD, blame, raw, and the one-file commits.
import { type Request, type Response, Router } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import { pathParam, queryString } from '../../core/http/request.js';
import type { RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  blameRepositoryFile,
  changeRepositoryFile,
  type RepositoryFile,
  readRepositoryFile,
} from './service.js';

const FILE = '/projects/:id/repository/files/:file_path';

/**
 * A name, path or ref as a header value: unchanged, as the seed wants ("same values as the object fields"),
 * when it is printable ASCII; otherwise percent-encoded, since header values cannot carry such characters.
 */
function headerValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}

/** The metadata headers of a file (the HEAD response; GET sends them too). */
function setFileHeaders(res: Response, file: RepositoryFile): void {
  res.set({
    'X-Service-Blob-Id': file.blob_id,
    'X-Service-Commit-Id': file.commit_id,
    'X-Service-Content-Sha256': file.content_sha256,
    'X-Service-Encoding': file.encoding,
    'X-Service-File-Name': headerValue(file.file_name),
    'X-Service-File-Path': headerValue(file.file_path),
    'X-Service-Last-Commit-Id': file.last_commit_id,
    'X-Service-Ref': headerValue(file.ref),
    'X-Service-Size': String(file.size),
  });
}

export function repositoryFilesRouter(context: ServerContext): Router {
  const router = Router();

  const readFile = (req: Request, res: Response) =>
    readRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      queryString(req, 'ref'),
    );
  const sendHead = async (req: Request, res: Response) => {
    setFileHeaders(res, (await readFile(req, res)).file);
    res.status(200).end();
  };

  router.head(FILE, sendHead);
  router.get(FILE, async (req, res) => {
    const { file } = await readFile(req, res);
    setFileHeaders(res, file);
    const body: ResponseBody<'getRepositoryFile', 200> = file;
    res.json(body);
  });

  router.head(`${FILE}/blame`, sendHead);
  router.get(`${FILE}/blame`, async (req, res) => {
    const { file, ranges } = await blameRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      queryString(req, 'ref'),
    );
    setFileHeaders(res, file);
    const body: ResponseBody<'getRepositoryFileBlame', 200> = ranges;
    res.json(body);
  });

  router.head(`${FILE}/raw`, sendHead);
  router.get(`${FILE}/raw`, async (req, res) => {
    const { file, content } = await readFile(req, res);
    setFileHeaders(res, file);
    res.type('text/plain; charset=utf-8').send(content);
  });

  router.post(FILE, async (req, res) => {
    const body = req.body as RequestBody<'createRepositoryFile'>;
    await changeRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      'create',
      body,
    );
    const result: ResponseBody<'createRepositoryFile', 201> = {
      file_path: pathParam(req, 'file_path'),
      branch: body.branch,
    };
    res.status(201).json(result);
  });
  router.put(FILE, async (req, res) => {
    const body = req.body as RequestBody<'updateRepositoryFile'>;
    await changeRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      'update',
      body,
    );
    const result: ResponseBody<'updateRepositoryFile', 200> = {
      file_path: pathParam(req, 'file_path'),
      branch: body.branch,
    };
    res.status(200).json(result);
  });
  router.delete(FILE, async (req, res) => {
    const body = req.body as RequestBody<'deleteRepositoryFile'>;
    await changeRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      'delete',
      body,
    );
    res.status(204).end();
  });

  return router;
}
