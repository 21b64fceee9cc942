// Deliveries through the real job queue to a real local receiver: the retries and their bound, the timeout,
// the headers, and the push events a repository change sends (commits of a new branch and of an update).

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import type { ServerContext } from '../../core/context.js';
import { openDataDirectory } from '../../core/dataDirectory.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { type Fixtures, readFixturesFile } from '../../core/store/fixturesFile.js';
import { attemptDelivery, type DeliveryOptions, queueDeliveries, registerDeliveryJob } from './delivery.js';
import { registerHookEvents } from './events.js';
import { presentHook } from './present.js';
import { hooksWithAnyFlag } from './store.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with the status `answer` gives (null: never answers). */
async function startReceiver(answer: (index: number) => number | null) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = answer(received.length);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (status !== null) res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const OPTIONS: DeliveryOptions = {
  instanceUrl: 'http://collab.test',
  timeoutMs: 300,
  retryDelaysMs: [30, 30, 30],
};

let dataDir: string;
let context: ServerContext;
let receiver: Receiver;
/** acme/website in the demo fixtures. */
const PROJECT_ID = 1;

/** The demo fixtures with the website's hooks replaced by `hooks`. */
async function fixturesWith(hooks: NonNullable<Fixtures['projects'][number]['hooks']>): Promise<Fixtures> {
  const demo = await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));
  return {
    ...demo,
    projects: demo.projects.map((project) => (project.path === 'website' ? { ...project, hooks } : project)),
  };
}

async function open(hooks: NonNullable<Fixtures['projects'][number]['hooks']>): Promise<void> {
  context = await openDataDirectory({
    dataDir,
    fixtures: await fixturesWith(hooks),
    fixtureAreas: FIXTURE_AREAS,
  });
  registerDeliveryJob(context, OPTIONS);
  registerHookEvents(context, 'http://collab.test');
  await context.jobs.start();
}

async function deliveries() {
  return context.db.selectFrom('project_hook_deliveries').selectAll().orderBy('id').execute();
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-hooks-'));
});

afterEach(async () => {
  await context.jobs.stop();
  await context.db.destroy();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Waits until no delivery is pending (retries are scheduled a little later, so idle() is not enough). */
async function settled(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await deliveries()).some((d) => d.state === 'pending')) {
    if (Date.now() > deadline) throw new Error('deliveries did not settle');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('delivery attempts', () => {
  it('retries after 500s and delivers once, on the third attempt, with the headers', async () => {
    receiver = await startReceiver((index) => (index < 2 ? 500 : 200));
    await open([{ url: receiver.url, token: 's3cret', push_events: true }]);
    const hooks = await hooksWithAnyFlag(context.db, PROJECT_ID, ['push_events']);
    await queueDeliveries(context, hooks, 'Push Hook', { object_kind: 'push' });
    await settled();
    expect(receiver.received).toHaveLength(3);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      state: 'delivered',
      attempts: 3,
      response_status: 200,
      last_error: null,
    });
    for (const { headers, body } of receiver.received) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-event']).toBe('Push Hook');
      expect(headers['x-service-token']).toBe('s3cret');
      expect(headers['x-service-instance']).toBe('http://collab.test');
      // The same event on every attempt.
      expect(headers['x-service-event-uuid']).toBe(delivery?.event_uuid);
      expect(JSON.parse(body)).toEqual({ object_kind: 'push' });
    }
  });

  it('gives up after the last attempt (4 here) and records the failure', async () => {
    receiver = await startReceiver(() => 503);
    await open([{ url: receiver.url, push_events: true }]);
    await queueDeliveries(
      context,
      await hooksWithAnyFlag(context.db, PROJECT_ID, ['push_events']),
      'Push Hook',
      {},
    );
    await settled();
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received[0]?.headers['x-service-token']).toBeUndefined();
    expect(await deliveries()).toMatchObject([
      { state: 'failed', attempts: 4, response_status: 503, last_error: 'HTTP 503' },
    ]);
  });

  it('counts a refused connection and a receiver that never answers as failed attempts', async () => {
    receiver = await startReceiver(() => null);
    await open([
      { url: receiver.url, push_events: true },
      { url: 'http://127.0.0.1:1/refused', push_events: true },
    ]);
    const hooks = await hooksWithAnyFlag(context.db, PROJECT_ID, ['push_events']);
    await context.jobs.stop();
    await queueDeliveries(context, hooks, 'Push Hook', {});
    const [slow, refused] = await deliveries();
    const started = Date.now();
    await attemptDelivery(context, slow?.id ?? 0, OPTIONS);
    expect(Date.now() - started).toBeLessThan(OPTIONS.timeoutMs + 1000);
    await attemptDelivery(context, refused?.id ?? 0, OPTIONS);
    expect(await deliveries()).toMatchObject([
      { state: 'pending', attempts: 1, response_status: null, last_error: 'no answer within 0.3 s' },
      {
        state: 'pending',
        attempts: 1,
        response_status: null,
        last_error: expect.stringMatching(/ECONNREFUSED/),
      },
    ]);
  });
});

describe('a hook that keeps failing', () => {
  it('is backed off after its fourth failure: events queue nothing for it, its retries end unsent', async () => {
    receiver = await startReceiver(() => 503);
    await open([{ url: receiver.url, push_events: true }]);
    const hooks = await hooksWithAnyFlag(context.db, PROJECT_ID, ['push_events']);
    // Four events, each failing its first attempt (run here, the queue stopped, so that the retries wait):
    // the fourth failure backs the hook off.
    await context.jobs.stop();
    for (let i = 0; i < 4; i++) {
      await queueDeliveries(context, hooks, 'Push Hook', {});
      const pending = (await deliveries()).at(-1);
      await attemptDelivery(context, pending?.id ?? 0, OPTIONS);
    }
    expect(receiver.received).toHaveLength(4);
    const hook = await context.db
      .selectFrom('project_hooks')
      .selectAll()
      .where('project_id', '=', PROJECT_ID)
      .executeTakeFirstOrThrow();
    expect(hook.recent_failures).toBe(4);
    expect(Date.parse(hook.disabled_until ?? '')).toBeGreaterThan(Date.now() + 50_000);
    // The API shows it as GitLab does.
    expect(presentHook(hook)).toMatchObject({
      alert_status: 'temporarily_disabled',
      disabled_until: hook.disabled_until,
    });
    // An event while it is backed off goes through the events' own path: nothing is queued for it.
    await context.repositoryEvents.changed(context.db, PROJECT_ID, [
      { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40), userId: 2, commits: [] },
    ]);
    expect(await deliveries()).toHaveLength(4);
    await context.jobs.start();
    await settled();
    // The three others' retries (and the queued first attempts) came while it was backed off: they end
    // failed, unsent; the fourth had no retry.
    expect(receiver.received).toHaveLength(4);
    expect((await deliveries()).map((d) => [d.state, d.attempts, d.last_error])).toEqual([
      ['failed', 1, 'Hook disabled'],
      ['failed', 1, 'Hook disabled'],
      ['failed', 1, 'Hook disabled'],
      ['failed', 1, 'HTTP 503'],
    ]);
  });

  it('is reset by a success', async () => {
    receiver = await startReceiver((index) => (index < 3 ? 500 : 200));
    await open([{ url: receiver.url, push_events: true }]);
    const hooks = await hooksWithAnyFlag(context.db, PROJECT_ID, ['push_events']);
    await queueDeliveries(context, hooks, 'Push Hook', {});
    await settled();
    expect((await deliveries())[0]).toMatchObject({ state: 'delivered', attempts: 4 });
    expect(
      await context.db
        .selectFrom('project_hooks')
        .select(['recent_failures', 'disabled_until'])
        .where('project_id', '=', PROJECT_ID)
        .execute(),
    ).toEqual([{ recent_failures: 0, disabled_until: null }]);
  });
});

describe('push events of repository changes', () => {
  const identity = {
    authorName: 'Olga Owner',
    authorEmail: 'owner@example.com',
    committerName: 'Olga Owner',
    committerEmail: 'owner@example.com',
  };

  it('sends a new branch without commits of its own, then an update with its commit', async () => {
    receiver = await startReceiver(() => 200);
    await open([
      { url: receiver.url, push_events: true },
      { url: `${receiver.url}/filtered`, push_events: true, push_events_branch_filter: 'release/*' },
    ]);
    const project = await context.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', PROJECT_ID)
      .executeTakeFirstOrThrow();
    const repo = repositoryOf(context, project);
    const created = await repo.createBranch('topic', 'main');
    if (!created.ok) throw new Error(created.message);
    await context.repositoryEvents.changed(context.db, PROJECT_ID, [
      { ref: 'refs/heads/topic', before: ZERO_SHA, after: created.branch.commit.id, userId: 2 },
    ]);
    const commit = await repo.commitFileChange({
      branch: 'topic',
      action: 'create',
      filePath: 'notes.txt',
      content: Buffer.from('hi\n'),
      message: 'Add notes\n\nWith a body.',
      ...identity,
    });
    if (!commit.ok) throw new Error(commit.message);
    expect(commit.before).toBe(created.branch.commit.id);
    await context.repositoryEvents.changed(context.db, PROJECT_ID, [
      { ref: 'refs/heads/topic', before: commit.before, after: commit.commitId, userId: 2 },
    ]);
    await settled();

    // The filtered hook (release/*) got nothing.
    expect(receiver.received.map((r) => JSON.parse(r.body).after)).toEqual([
      created.branch.commit.id,
      commit.commitId,
    ]);
    const [creation, update] = receiver.received.map((r) => JSON.parse(r.body));
    expect(creation).toMatchObject({
      object_kind: 'push',
      before: ZERO_SHA,
      ref: 'refs/heads/topic',
      commits: [],
      total_commits_count: 0,
      user_id: 2,
      user_username: 'owner',
      project_id: PROJECT_ID,
      project: { path_with_namespace: 'acme/website', web_url: 'http://collab.test/acme/website' },
    });
    expect(update).toMatchObject({
      before: created.branch.commit.id,
      after: commit.commitId,
      checkout_sha: commit.commitId,
      total_commits_count: 1,
      commits: [
        {
          id: commit.commitId,
          title: 'Add notes',
          message: 'Add notes\n\nWith a body.',
          url: `http://collab.test/acme/website/-/commit/${commit.commitId}`,
          author: { name: 'Olga Owner', email: 'owner@example.com' },
        },
      ],
    });
  });
});
