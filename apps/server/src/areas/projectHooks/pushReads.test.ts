// One push's consumers share what they read of it (issue 25): a commit through the API to `develop`, the
// source branch of the demo's open merge request, makes a push event and, through the merge request's
// refresh, a merge request event for the project's hook; both payloads need the project, the pusher and the
// merge request's new head, which are read once (the head not at all: the commit brings it).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollabApp, createApp } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { readFixturesFile } from '../../core/store/fixturesFile.js';

const work = mkdtempSync(join(tmpdir(), 'collab-push-reads-'));
let server: CollabApp;
let origin = '';
let close: () => Promise<void> = async () => {};
/** SQL statements run since the last reset. */
let statements: string[] = [];

beforeAll(async () => {
  server = await createApp({
    dataDir: join(work, 'data'),
    fixtures: await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)),
  });
  const executor = server.context.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = (query, queryId) => {
    statements.push(query.sql);
    return execute(query, queryId);
  };
  const listener = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  close = async () => {
    listener.close();
    await server.close();
  };
}, 120_000);

afterAll(async () => {
  await close();
  rmSync(work, { recursive: true, force: true });
});

describe("a commit to an open merge request's source branch", () => {
  it('reads its project and its user once for the push event and the merge request event', async () => {
    statements = [];
    const response = await fetch(
      `${origin}/api/v4/projects/acme%2Fwebsite/repository/files/${encodeURIComponent('notes/shared.md')}`,
      {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'collab-demo-maintainer-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ branch: 'develop', content: 'shared\n', commit_message: 'Shared reads' }),
      },
    );
    expect(response.status, await response.text()).toBe(201);
    const deliveries = await server.context.db
      .selectFrom('project_hook_deliveries')
      .select('event')
      .orderBy('id')
      .execute();
    // Both events were made by the request (the demo hook takes push and merge request events).
    expect(deliveries.map((delivery) => delivery.event)).toEqual(['Push Hook', 'Merge Request Hook']);
    const hookProjectReads = statements.filter((sql) =>
      /"g"\."full_path" as "namespace_full_path"/.test(sql),
    );
    const userReads = statements.filter((sql) =>
      /^select "id", "name", "username", "avatar_url" from "users" where "id" = \?$/.test(sql),
    );
    expect(hookProjectReads).toHaveLength(1);
    expect(userReads).toHaveLength(1);
  });
});
