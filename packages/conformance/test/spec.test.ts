// The spec's own conventions (design.md), checked on the bundled document so they cannot drift.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;
const document = JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as Json & {
  paths: Record<string, Json>;
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

function resolve(value: unknown): Json {
  let current = value as Json;
  for (let depth = 0; depth < 10 && typeof current?.$ref === 'string'; depth++) {
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((node, key) => node[key] as Json, document);
  }
  return current;
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({
    path,
    method,
    operation: item[method] as Json,
  })),
);

describe('the bundled spec', () => {
  it('holds the 197 operations of the two seed documents, the GitLab v4 entry points and the integrations under their current name, each with a unique operationId', () => {
    // The entry points every client calls first, which the seeds leave "not shown" (issue 17, point 2).
    const entryPoints = [
      'getVersion',
      'getMetadata',
      'getCurrentUser',
      'listUsers',
      'getUser',
      'createProject',
      'getProject',
      'editProject',
      'listProjectMembers',
      'listProjectMembersIncludingInherited',
      'getProjectMember',
      'getProjectMemberIncludingInherited',
      'listGroupMembers',
      'listGroupMembersIncludingInherited',
      'getGroupMember',
      'getGroupMemberIncludingInherited',
      // Groups and members made through the API (issue 27).
      'createGroup',
      'editGroup',
      'deleteGroup',
      'addProjectMember',
      'editProjectMember',
      'removeProjectMember',
      'addGroupMember',
      'editGroupMember',
      'removeGroupMember',
      'listProjectIssues',
      'getProjectIssue',
      'createProjectIssue',
      'updateProjectIssue',
      'listProjectMergeRequests',
      'getProjectMergeRequest',
      // Users and their tokens made through the API (issue 27, point 2).
      'createUser',
      'updateUser',
      'deleteUser',
      'createUserPersonalAccessToken',
      'listPersonalAccessTokens',
      'getPersonalAccessToken',
      'revokePersonalAccessToken',
      'getCurrentPersonalAccessToken',
      'revokeCurrentPersonalAccessToken',
      'createProjectMergeRequest',
      'updateProjectMergeRequest',
      'mergeProjectMergeRequest',
      'cancelMergeRequestAutoMerge',
      'deleteProjectMergeRequest',
      // What a GitLab client's test suite also uses (issue 27's last points).
      'deleteProjectIssue',
      'createCurrentUserPersonalAccessToken',
      'blockUser',
      'unblockUser',
    ];
    const ids = operations.map(({ operation }) => String(operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of entryPoints) {
      const entry = operations.find(({ operation }) => operation.operationId === id);
      expect(entry?.operation['x-source'], id).toBe('gitlab-v4');
    }
    // Every integration operation also under GitLab's current name, /projects/:id/integrations (issue 19).
    const integrationAliases = operations.filter(({ path }) =>
      path.startsWith('/projects/{id}/integrations'),
    );
    for (const { path, method, operation } of integrationAliases) {
      expect(operation['x-source'], operation.operationId as string).toBe('gitlab-v4');
      const seedPath = path.replace('/integrations', '/services');
      expect(
        operations.some((other) => other.path === seedPath && other.method === method),
        path,
      ).toBe(true);
    }
    expect(integrationAliases).toHaveLength(46);
    expect(operations).toHaveLength(197 + entryPoints.length + integrationAliases.length);
  });

  it('gives every operation exactly one defined tag, a summary, a description and security', () => {
    const tags = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    for (const { operation } of operations) {
      const where = String(operation.operationId);
      expect(operation.tags, where).toHaveLength(1);
      expect(tags.has((operation.tags as string[])[0] ?? ''), where).toBe(true);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description, where).toBeTruthy();
      expect(Array.isArray(operation.security), where).toBe(true);
    }
  });

  it('writes every pattern so that any regular-expression engine reads it: no \\p{…} classes, no \\u{…} escapes', () => {
    const patterns = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) for (const item of value) walk(item);
      else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === 'pattern' && typeof child === 'string') patterns.add(child);
          else walk(child);
        }
      }
    };
    walk(document);
    expect(patterns.size).toBeGreaterThan(10);
    // ECMAScript reads these only in its `u` mode; Python's re, Go's regexp or Java's Pattern refuse one or both.
    expect([...patterns].filter((pattern) => /\\[pP]\{|\\u\{|\\x\{/.test(pattern))).toEqual([]);
  });

  it('has an example for every response body', () => {
    const missing: string[] = [];
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        for (const [mediaType, media] of Object.entries(
          (resolve(response).content ?? {}) as Record<string, Json>,
        )) {
          const schema = resolve(media.schema ?? {});
          const hasExample =
            media.example !== undefined || media.examples !== undefined || schema.examples !== undefined;
          if (!hasExample) missing.push(`${String(operation.operationId)} ${status} ${mediaType}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('paginates every list: page, per_page and the seven headers on every GET that answers an array', () => {
    const headers = [
      'X-Total',
      'X-Total-Pages',
      'X-Per-Page',
      'X-Page',
      'X-Next-Page',
      'X-Prev-Page',
      'Link',
    ];
    // Blame answers the ranges of one file, not a list of resources: GitLab does not paginate it either.
    const notLists = new Set(['getRepositoryFileBlame']);
    for (const { method, operation } of operations.filter(
      ({ method, operation }) => method === 'get' && !notLists.has(String(operation.operationId)),
    )) {
      const ok = resolve((operation.responses as Json)['200']);
      const schema = resolve(
        (ok.content as Record<string, Json> | undefined)?.['application/json']?.schema ?? {},
      );
      if (schema.type !== 'array') continue;
      const where = `${method} ${String(operation.operationId)}`;
      const names = ((operation.parameters ?? []) as Json[]).map((parameter) => resolve(parameter).name);
      expect(names, where).toEqual(expect.arrayContaining(['page', 'per_page']));
      expect(Object.keys((ok.headers ?? {}) as Json), where).toEqual(expect.arrayContaining(headers));
    }
  });

  it('documents 400 on every operation that takes parameters (a malformed value or %-encoding is a bad request)', () => {
    const missing: string[] = [];
    for (const { path, operation } of operations) {
      const takesParameters =
        ((document.paths[path]?.parameters ?? []) as unknown[]).length > 0 ||
        ((operation.parameters ?? []) as unknown[]).length > 0 ||
        operation.requestBody !== undefined;
      if (takesParameters && !(operation.responses as Json)['400'])
        missing.push(String(operation.operationId));
    }
    expect(missing).toEqual([]);
  });

  it('serves SCIM under its own server with bearer security and SCIM media types', () => {
    for (const [path, item] of Object.entries(document.paths).filter(
      ([path]) => path.endsWith('/Users') || path.includes('/Users/'),
    )) {
      expect((item.servers as { url: string }[])[0]?.url, path).toBe('{base_url}/api/scim/v2');
      for (const method of METHODS.filter((m) => item[m])) {
        expect((item[method] as Json).security, path).toEqual([{ scimBearer: [] }]);
      }
    }
  });
});
