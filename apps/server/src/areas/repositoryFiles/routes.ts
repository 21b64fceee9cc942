// Routes of the repository files area: read, HEAD, blame, raw, and the one-file commits.
import type { Response } from 'express';
import type { ServerContext } from '../../core/context.js';
import { callerOf } from '../../core/http/auth.js';
import type { OperationHandlers } from '../../core/http/operations.js';
import { pathParam, queryString } from '../../core/http/request.js';
import type { ApiRequest, RequestBody, ResponseBody } from '../../core/http/types.js';
import {
  blameRepositoryFile,
  changeRepositoryFile,
  type RepositoryFile,
  readRepositoryFile,
} from './service.js';

/**
 * A name, path or ref as a header value: unchanged, as the seed wants ("same values as the object fields"),
 * when it is printable ASCII; otherwise percent-encoded, since header values cannot carry such characters.
 */
function headerValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}

/** How each metadata header of a file is read, by its name after `X-Service-` and `X-Gitlab-`. */
const FILE_HEADER_VALUES: Record<string, (file: RepositoryFile) => string> = {
  'Blob-Id': (file) => file.blob_id,
  'Commit-Id': (file) => file.commit_id,
  'Content-Sha256': (file) => file.content_sha256,
  Encoding: (file) => file.encoding,
  'File-Name': (file) => headerValue(file.file_name),
  'File-Path': (file) => headerValue(file.file_path),
  'Last-Commit-Id': (file) => file.last_commit_id,
  Ref: (file) => headerValue(file.ref),
  Size: (file) => String(file.size),
};
const FILE_HEADERS = Object.entries(FILE_HEADER_VALUES).map(
  ([name, read]) => [`X-Service-${name}`, `X-Gitlab-${name}`, read] as const,
);

/**
 * The metadata headers of a file (the HEAD response; GET sends them too): under the seeds' `X-Service-*`
 * names, and under GitLab's `X-Gitlab-*` names with the same values, which GitLab's clients read, with
 * `X-Gitlab-Execute-Filemode` beside them.
 */
function setFileHeaders(res: Response, file: RepositoryFile): void {
  for (const [serviceName, gitlabName, read] of FILE_HEADERS) {
    const value = read(file);
    res.setHeader(serviceName, value);
    res.setHeader(gitlabName, value);
  }
  // GitLab's one header without a seed name.
  res.setHeader('X-Gitlab-Execute-Filemode', String(file.execute_filemode));
}

export function repositoryFilesHandlers(context: ServerContext): OperationHandlers {
  const handlers: OperationHandlers = {};

  const readFile = (req: ApiRequest, res: Response) =>
    readRepositoryFile(
      context,
      callerOf(res),
      pathParam(req, 'id'),
      pathParam(req, 'file_path'),
      queryString(req, 'ref'),
    );
  const sendHead = async (req: ApiRequest, res: Response) => {
    setFileHeaders(res, (await readFile(req, res)).file);
    res.status(200).end();
  };

  handlers.headRepositoryFile = sendHead;
  handlers.getRepositoryFile = async (req, res) => {
    const { file } = await readFile(req, res);
    setFileHeaders(res, file);
    const body: ResponseBody<'getRepositoryFile', 200> = file;
    res.json(body);
  };

  handlers.headRepositoryFileBlame = sendHead;
  handlers.getRepositoryFileBlame = async (req, res) => {
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
  };

  handlers.headRepositoryFileRaw = sendHead;
  handlers.getRepositoryFileRaw = async (req, res) => {
    const { file, content } = await readFile(req, res);
    setFileHeaders(res, file);
    res.type('text/plain; charset=utf-8').send(content);
  };

  handlers.createRepositoryFile = async (req, res) => {
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
  };
  handlers.updateRepositoryFile = async (req, res) => {
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
  };
  handlers.deleteRepositoryFile = async (req, res) => {
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
  };

  return handlers;
}
