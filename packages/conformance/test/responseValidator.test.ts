// Unit tests of the harness itself: a checker that never fails proves nothing.
import { describe, expect, it } from 'vitest';
import { loadSpecIndex, ResponseValidator } from '../src/index.js';

const index = loadSpecIndex();
const validator = new ResponseValidator(index);
const BASE = 'http://127.0.0.1:1/api/v4';
const json = (body: unknown, extra: Record<string, string> = {}) =>
  [new Headers({ 'content-type': 'application/json', ...extra }), JSON.stringify(body)] as const;

const goodFile = {
  file_name: 'README.md',
  file_path: 'README.md',
  size: 3,
  encoding: 'base64',
  content: 'YWJj',
  content_sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  ref: 'main',
  blob_id: 'f2ba8f84ab5c1bce84a7b441cb1959cfc7093b7f',
  commit_id: 'd78969e78d0b05321dc6c70bd9b8b613a080eb14',
  last_commit_id: 'a38ceda58d30497d72ef04d61409243e5430fb47',
  execute_filemode: false,
};

describe('ResponseValidator', () => {
  it('finds the operation behind a URL, literal segments before templated ones', () => {
    expect(
      validator.check(
        'GET',
        `${BASE}/projects/a%2Fb/repository/files/x%2Fy/raw?ref=main`,
        404,
        ...json({ message: '404 File Not Found' }),
      ).operation?.operationId,
    ).toBe('getRepositoryFileRaw');
    expect(
      validator.check('GET', `${BASE}/snippets/public`, 401, ...json({ message: '401 Unauthorized' }))
        .operation?.operationId,
    ).toBe('listPublicSnippets');
    expect(
      validator.check('POST', `${BASE}/projects/import`, 401, ...json({ message: 'x' })).operation
        ?.operationId,
    ).toBe('importProject');
    expect(
      validator.check('GET', 'http://127.0.0.1:1/api/scim/v2/groups/acme/Users', 401, new Headers(), '')
        .operation?.operationId,
    ).toBe('listScimUsers');
  });

  it('accepts a conforming body and rejects a wrong one', () => {
    const url = `${BASE}/projects/1/repository/files/README.md?ref=main`;
    const headers = {
      'X-Service-Blob-Id': goodFile.blob_id,
      'X-Service-Commit-Id': goodFile.commit_id,
      'X-Service-Content-Sha256': goodFile.content_sha256,
      'X-Service-Encoding': 'base64',
      'X-Service-File-Name': 'README.md',
      'X-Service-File-Path': 'README.md',
      'X-Service-Last-Commit-Id': goodFile.last_commit_id,
      'X-Service-Ref': 'main',
      'X-Service-Size': '3',
    };
    // GitLab's names of the same values, which the spec requires beside the seeds' (issue 26).
    const withGitlabNames = {
      ...Object.fromEntries(
        Object.entries(headers).flatMap(([name, value]) => [
          [name, value],
          [name.replace(/^X-Service-/, 'X-Gitlab-'), value],
        ]),
      ),
      'X-Gitlab-Execute-Filemode': 'false',
    };
    expect(validator.check('GET', url, 200, ...json(goodFile, withGitlabNames)).problems).toEqual([]);
    expect(
      validator
        .check('GET', url, 200, ...json({ ...goodFile, size: 'three' }, withGitlabNames))
        .problems.join(),
    ).toMatch(/size/);
    const { file_name: _, ...missing } = goodFile;
    expect(validator.check('GET', url, 200, ...json(missing, withGitlabNames)).problems.join()).toMatch(
      /file_name/,
    );
    // The seeds' names alone miss GitLab's.
    expect(validator.check('GET', url, 200, ...json(goodFile, headers)).problems.join()).toMatch(
      /X-Gitlab-Blob-Id/,
    );
  });

  it('rejects an undocumented status, a wrong content type, a missing required header and a bad header value', () => {
    const url = `${BASE}/projects/1/repository/files/README.md?ref=main`;
    expect(validator.check('GET', url, 418, ...json({ message: 'x' })).problems.join()).toMatch(
      /not documented/,
    );
    expect(
      validator.check('GET', url, 404, new Headers({ 'content-type': 'text/html' }), '<p>').problems.join(),
    ).toMatch(/content type/);
    expect(validator.check('HEAD', url, 200, new Headers(), '').problems.join()).toMatch(/X-Service-Blob-Id/);
    const list = `${BASE}/projects/1/repository/branches`;
    expect(validator.check('GET', list, 200, ...json([], { 'X-Total': 'many' })).problems.join()).toMatch(
      /X-Total/,
    );
  });

  it('rejects a body where none is documented, and an unknown path', () => {
    const url = `${BASE}/projects/1/repository/branches/feature`;
    expect(validator.check('DELETE', url, 204, new Headers(), 'oops').problems.join()).toMatch(
      /no documented body/,
    );
    expect(validator.check('GET', `${BASE}/nowhere`, 200, new Headers(), '').problems.join()).toMatch(
      /not an operation/,
    );
  });
});
