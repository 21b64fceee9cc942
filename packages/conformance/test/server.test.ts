// Server-wide behaviour: persistence across restarts, error shape of bad requests, the served spec.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  demoConfig,
  openTarget,
  startLocalServer,
  type Target,
  targetFor,
} from '../src/index.js';

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

describe('the served spec and docs', () => {
  it('serves the bundled spec as JSON and YAML, identical to the build', async () => {
    const json = await fetch(`${target.config.baseUrl}/openapi.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
    expect(await json.json()).toEqual(JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')));
    const yaml = await fetch(`${target.config.baseUrl}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toMatch(/^# generated .*\nopenapi: 3\.1\.0/);
  });

  it('serves the reference docs at /docs', async () => {
    const response = await fetch(`${target.config.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toContain('Collab API');
  });
});

describe('bad requests', () => {
  it('answers an unknown API path with 404 in the Error shape', async () => {
    const response = await fetch(`${target.config.baseUrl}/api/v4/no/such/thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/404/) });
  });

  it('answers malformed JSON with 400 in the Error shape, and an unsupported content type with 400', async () => {
    const url = `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(target.config.fixtures.publicProject)}/repository/branches`;
    const headers = { 'PRIVATE-TOKEN': target.config.tokens.developer };
    const malformed = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"branch":',
    });
    expect(malformed.status).toBe(400);
    expect(Object.keys(await malformed.json())).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(message|error)$/)]),
    );
    const xml = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/xml' },
      body: '<branch/>',
    });
    expect(xml.status).toBe(400);
  });

  it('ignores a query parameter the operation does not declare, as GitLab does', async () => {
    const list = `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(target.config.fixtures.publicProject)}/repository/branches`;
    const [plain, unknown] = await Promise.all([target.fetch(list), target.fetch(`${list}?colour=blue`)]);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await plain.json());
  });
});

/** Restarting needs this repository's server: skipped when the suite runs against another one. */
const againstLocalServer = againstSuiteServer();

describe('persistence', () => {
  it.skipIf(!againstLocalServer)(
    'keeps commits, branches and data across a restart on the same data directory',
    async () => {
      const first = await startLocalServer();
      const before = targetFor(demoConfig(first.baseUrl), first);
      const project = before.config.fixtures.publicProject;
      const created = await before.as('developer').POST('/projects/{id}/repository/branches', {
        params: { path: { id: project } },
        body: { branch: 'survives/restart', ref: 'main' },
      });
      expect(created.response.status).toBe(201);
      await before.as('developer').POST('/projects/{id}/repository/files/{file_path}', {
        params: { path: { id: project, file_path: 'persist.txt' } },
        body: { branch: 'survives/restart', content: 'still here', commit_message: 'persist' },
      });
      await first.close({ keepData: true });

      const second = await startLocalServer({ dataDir: first.dataDir });
      const after = targetFor(demoConfig(second.baseUrl), second);
      try {
        const file = await after.as('developer').GET('/projects/{id}/repository/files/{file_path}', {
          params: { path: { id: project, file_path: 'persist.txt' }, query: { ref: 'survives/restart' } },
        });
        expect(Buffer.from(file.data?.content ?? '', 'base64').toString()).toBe('still here');
        const branches = await after.as('developer').GET('/projects/{id}/repository/branches', {
          params: { path: { id: project }, query: { search: '^survives' } },
        });
        expect(branches.data?.map((b) => b.name)).toEqual(['survives/restart']);
      } finally {
        await second.close();
      }
    },
  );
});
