// The metadata of a repository file as `HEAD /projects/:id/repository/files/:file_path` sends it: headers
// only, which openapi-fetch does not type. The header names and types come from the spec.
import { CollabApiError } from './errors.js';
import type { components } from './spec.js';

type DocumentedHeaders = components['responses']['RepositoryFileHead']['headers'];

/** The documented headers of the HEAD answer, without the open-ended `[name: string]` entry. */
export type RepositoryFileHeaders = {
  [Name in keyof DocumentedHeaders as string extends Name ? never : Name]: DocumentedHeaders[Name];
};

// One reader per documented header: the Record makes a header the spec adds a compile error here.
const text = (value: string) => value;
// File names, paths and refs outside printable ASCII travel percent-encoded.
const percentDecoded = (value: string) => decodeURIComponent(value);
const readers: { [Name in keyof RepositoryFileHeaders]: (value: string) => RepositoryFileHeaders[Name] } = {
  'X-Service-Blob-Id': text,
  'X-Service-Commit-Id': text,
  'X-Service-Content-Sha256': text,
  'X-Service-Encoding': (value) => value as RepositoryFileHeaders['X-Service-Encoding'],
  'X-Service-File-Name': percentDecoded,
  'X-Service-File-Path': percentDecoded,
  'X-Service-Last-Commit-Id': text,
  'X-Service-Ref': percentDecoded,
  'X-Service-Size': Number,
  // GitLab's names of the same values, sent beside the seeds' ones.
  'X-Gitlab-Blob-Id': text,
  'X-Gitlab-Commit-Id': text,
  'X-Gitlab-Content-Sha256': text,
  'X-Gitlab-Encoding': (value) => value as RepositoryFileHeaders['X-Gitlab-Encoding'],
  'X-Gitlab-File-Name': percentDecoded,
  'X-Gitlab-File-Path': percentDecoded,
  'X-Gitlab-Last-Commit-Id': text,
  'X-Gitlab-Ref': percentDecoded,
  'X-Gitlab-Size': Number,
  // GitLab's one header without a seed name: 'true' for an executable file.
  'X-Gitlab-Execute-Filemode': (value) => value as RepositoryFileHeaders['X-Gitlab-Execute-Filemode'],
};

/**
 * Reads a repository file's metadata from the answer of `client.HEAD('/projects/{id}/repository/files/{file_path}', …)`.
 * Throws a CollabApiError for an error answer, and an Error when a documented header is missing.
 */
export function repositoryFileHeaders(response: Response): RepositoryFileHeaders {
  if (!response.ok) throw CollabApiError.from(response, undefined);
  const result: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(readers)) {
    const value = response.headers.get(name);
    if (value === null) throw new Error(`the HEAD answer lacks the ${name} header`);
    result[name] = read(value);
  }
  return result as RepositoryFileHeaders;
}
