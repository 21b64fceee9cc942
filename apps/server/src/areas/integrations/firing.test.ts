// Integrations firing for real, through the job queue, to a local receiver: the team chats (push, branch
// settings, finished pipelines, merge requests), the build server trigger, the CI server hook, the code host's commit status,
// retries; and the push e-mails written to the outbox under the data directory. Also what the conformance
// suite cannot see: the higher-tier slug on the free tier.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_AREAS } from '../../app.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { type Caller, callerForToken } from '../../core/access/caller.js';
import type { ServerContext } from '../../core/context.js';
import { openDataDirectory } from '../../core/dataDirectory.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { ZERO_SHA } from '../../core/git/repositoryEvents.js';
import { ApiError } from '../../core/http/errors.js';
import { readFixturesFile } from '../../core/store/fixturesFile.js';
import { mergeProjectMergeRequest } from '../mergeRequests/merge.js';
import { createProjectMergeRequest, updateProjectMergeRequest } from '../mergeRequests/writes.js';
import { pipelineStatusChanged } from '../pipelines/events.js';
import { outboxDirectory, registerIntegrationDeliveryJob } from './delivery.js';
import { registerIntegrationEvents } from './events.js';
import { getIntegration, putIntegration, removeIntegration } from './service.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with the status `answer` gives. */
async function startReceiver(answer: (index: number) => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = answer(received.length);
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const BASE_URL = 'http://collab.test';
/** acme/website in the demo fixtures: `main` is protected, `develop` is not. */
const PROJECT = 'acme/website';
const PROJECT_ID = 1;
const identity = {
  authorName: 'Olga Owner',
  authorEmail: 'owner@example.com',
  committerName: 'Olga Owner',
  committerEmail: 'owner@example.com',
};

let dataDir: string;
let context: ServerContext;
let receiver: Receiver | undefined;
let owner: Caller;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-integrations-'));
  const demo = await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));
  context = await openDataDirectory({ dataDir, fixtures: demo, fixtureAreas: FIXTURE_AREAS });
  registerIntegrationDeliveryJob(context, { timeoutMs: 1000, retryDelaysMs: [30, 30] });
  registerIntegrationEvents(context, BASE_URL);
  await context.jobs.start();
  owner = await callerForToken(context.db, 'collab-demo-owner-token');
});

afterEach(async () => {
  await context.jobs.stop();
  await context.db.destroy();
  await receiver?.close();
  receiver = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** Waits until the receiver has `count` requests and the queue has nothing due (retries come a little later). */
async function receivedAtLeast(count: number): Promise<Received[]> {
  if (!receiver) throw new Error('no receiver');
  const deadline = Date.now() + 10_000;
  while (receiver.received.length < count) {
    if (Date.now() > deadline) throw new Error(`got ${receiver.received.length} of ${count} requests`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await context.jobs.idle();
  return receiver.received;
}

async function project() {
  return context.db.selectFrom('projects').selectAll().where('id', '=', PROJECT_ID).executeTakeFirstOrThrow();
}

/** Commits a file on `branch` and tells the listeners, as a request would. */
async function push(branch: string, file: string): Promise<{ before: string; after: string }> {
  const commit = await repositoryOf(context, await project()).commitFileChange({
    branch,
    action: 'create',
    filePath: file,
    content: Buffer.from(`${file}\n`),
    message: `Add ${file}\n\nWith a body.`,
    ...identity,
  });
  if (!commit.ok) throw new Error(commit.message);
  await context.repositoryEvents.changed(context.db, PROJECT_ID, [
    { ref: `refs/heads/${branch}`, before: commit.before ?? ZERO_SHA, after: commit.commitId, userId: 2 },
  ]);
  return { before: commit.before ?? ZERO_SHA, after: commit.commitId };
}

describe('push events', () => {
  it('post to a team chat, trigger the build server and call the CI server, each with its own secret', async () => {
    receiver = await startReceiver();
    await putIntegration(context, owner, PROJECT, 'team-chat-a', {
      webhook: `${receiver.origin}/chat/secret-path`,
    });
    await putIntegration(context, owner, PROJECT, 'build-server-a', {
      buildserver_url: `${receiver.origin}/build/`,
      build_key: 'WEB-PLAN',
      username: 'ci',
      password: 'pa55',
    });
    await putIntegration(context, owner, PROJECT, 'ci-server-b', {
      token: 'ci-token',
      ci_server_url: `${receiver.origin}/drone`,
    });
    const { before, after } = await push('develop', 'chat.txt');
    const received = await receivedAtLeast(3);
    expect(received).toHaveLength(3);

    const chat = received.find((r) => r.url === '/chat/secret-path');
    expect(chat?.method).toBe('POST');
    expect(chat?.headers['content-type']).toBe('application/json');
    const text: string = JSON.parse(chat?.body ?? '{}').text;
    expect(text).toContain(
      `Olga Owner pushed to branch <${BASE_URL}/acme/website/-/commits/develop|develop> of <${BASE_URL}/acme/website|`,
    );
    expect(text).toContain(`${before.slice(0, 8)}...${after.slice(0, 8)}|Compare changes>`);
    expect(text).toContain(`|${after.slice(0, 8)}>: Add chat.txt - Olga Owner`);

    const build = received.find((r) => r.url.startsWith('/build'));
    expect(build).toMatchObject({ method: 'GET', url: '/build/updateAndBuild.action?buildKey=WEB-PLAN' });
    expect(build?.headers.authorization).toBe(`Basic ${Buffer.from('ci:pa55').toString('base64')}`);

    const ci = received.find((r) => r.url.startsWith('/drone'));
    expect(ci).toMatchObject({
      method: 'POST',
      url: '/drone/hook?owner=acme&name=website&access_token=ci-token',
    });
    expect(ci?.headers['x-service-event']).toBe('Push Hook');
    expect(JSON.parse(ci?.body ?? '{}')).toMatchObject({
      object_kind: 'push',
      before,
      after,
      total_commits_count: 1,
    });
  });

  it('leave out what the settings leave out: branches, flags, deleted or turned-off integrations', async () => {
    receiver = await startReceiver();
    await putIntegration(context, owner, PROJECT, 'team-chat-b', {
      webhook: `${receiver.origin}/default-only`,
      branches_to_be_notified: 'default',
    });
    await putIntegration(context, owner, PROJECT, 'team-chat-c', {
      webhook: `${receiver.origin}/protected-only`,
      notify_only_default_branch: false,
      branches_to_be_notified: 'protected',
    });
    await putIntegration(context, owner, PROJECT, 'team-chat-a', {
      webhook: `${receiver.origin}/no-pushes`,
      push_events: false,
    });
    await putIntegration(context, owner, PROJECT, 'ci-server-b', {
      token: 't',
      ci_server_url: `${receiver.origin}/gone`,
    });
    await removeIntegration(context, owner, PROJECT, 'ci-server-b');
    await push('develop', 'ignored.txt');
    await push('main', 'main.txt');
    const received = await receivedAtLeast(2);
    expect(received.map((r) => r.url).sort()).toEqual(['/default-only', '/protected-only']);
    for (const r of received) expect(JSON.parse(r.body).text).toContain('pushed to branch');
  });

  it('retries a failed post and stops after the last attempt', async () => {
    receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
    await putIntegration(context, owner, PROJECT, 'team-chat-a', { webhook: `${receiver.origin}/flaky` });
    await push('develop', 'retry.txt');
    const received = await receivedAtLeast(2);
    expect(received).toHaveLength(2);
    expect(received[0]?.body).toBe(received[1]?.body);

    const failing = await startReceiver(() => 503);
    await putIntegration(context, owner, PROJECT, 'team-chat-a', { webhook: `${failing.origin}/down` });
    await push('develop', 'down.txt');
    const deadline = Date.now() + 5000;
    while (failing.received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await context.jobs.idle();
    // One attempt and the two retries of the options.
    expect(failing.received).toHaveLength(3);
    await failing.close();
  });
});

describe('pipeline events', () => {
  /** Pipeline numbers above the fixtures' own. */
  let nextIid = 1000;
  async function finishedPipeline(status: string): Promise<{ id: number; sha: string }> {
    const branch = await repositoryOf(context, await project()).getBranch('main');
    const sha = branch?.commit.id ?? '';
    const now = new Date().toISOString();
    const { id } = await context.db
      .insertInto('pipelines')
      .values({
        project_id: PROJECT_ID,
        iid: ++nextIid,
        sha,
        before_sha: ZERO_SHA,
        ref: 'main',
        tag: 0,
        status,
        source: 'push',
        yaml_errors: null,
        user_id: 2,
        created_at: now,
        updated_at: now,
        started_at: now,
        finished_at: now,
        committed_at: now,
        duration: 83,
        coverage: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await pipelineStatusChanged(context, id);
    return { id, sha };
  }

  it('tell a team chat of finished pipelines (failed ones only by default) and the code host of each status', async () => {
    receiver = await startReceiver();
    await putIntegration(context, owner, PROJECT, 'team-chat-a', {
      webhook: `${receiver.origin}/chat`,
      pipeline_events: true,
    });
    await putIntegration(context, owner, PROJECT, 'code-host-status', {
      token: 'host-token',
      repository_url: `${receiver.origin}/acme/website.git`,
    });
    const passed = await finishedPipeline('success');
    const failed = await finishedPipeline('failed');
    const received = await receivedAtLeast(3);
    expect(received).toHaveLength(3);

    const chats = received.filter((r) => r.url === '/chat');
    expect(chats).toHaveLength(1);
    expect(JSON.parse(chats[0]?.body ?? '{}').text).toBe(
      `Pipeline <${BASE_URL}/acme/website/-/pipelines/${failed.id}|#${failed.id}> of branch ` +
        `<${BASE_URL}/acme/website/-/commits/main|main> by Olga Owner (owner) failed in 01:23`,
    );

    const statuses = received.filter((r) => r.url.startsWith('/api/v3'));
    expect(statuses.map((r) => r.url)).toEqual([
      `/api/v3/repos/acme/website/statuses/${passed.sha}`,
      `/api/v3/repos/acme/website/statuses/${failed.sha}`,
    ]);
    expect(statuses[0]?.headers.authorization).toBe('token host-token');
    expect(statuses.map((r) => JSON.parse(r.body))).toEqual([
      {
        state: 'success',
        target_url: `${BASE_URL}/acme/website/-/pipelines/${passed.id}`,
        description: `Pipeline #${passed.id} passed on Collab`,
        context: 'ci/collab/main',
      },
      {
        state: 'failure',
        target_url: `${BASE_URL}/acme/website/-/pipelines/${failed.id}`,
        description: `Pipeline #${failed.id} failed on Collab`,
        context: 'ci/collab/main',
      },
    ]);
  });
});

describe('merge request events', () => {
  it('tell a team chat of a merge request opened, closed, reopened and merged, not of an update', async () => {
    receiver = await startReceiver();
    await putIntegration(context, owner, PROJECT, 'team-chat-a', {
      webhook: `${receiver.origin}/chat`,
      push_events: false,
    });
    const created = await repositoryOf(context, await project()).createBranch('chat-mr', 'main');
    if (!created.ok) throw new Error(created.message);
    await push('chat-mr', 'mr.txt');
    const mr = await createProjectMergeRequest(
      context,
      owner,
      PROJECT,
      { source_branch: 'chat-mr', target_branch: 'main', title: 'Chatty' },
      BASE_URL,
    );
    for (const body of [
      { title: 'Chatty change' },
      { state_event: 'close' as const },
      { state_event: 'reopen' as const },
    ])
      await updateProjectMergeRequest(context, owner, PROJECT, mr.iid, body, BASE_URL);
    await mergeProjectMergeRequest(context, owner, PROJECT, mr.iid, {}, BASE_URL);
    const received = await receivedAtLeast(4);
    const link = `<${BASE_URL}/acme/website/-/merge_requests/${mr.iid}|!${mr.iid} Chatty`;
    expect(received.map((r) => JSON.parse(r.body).text)).toEqual([
      `Olga Owner (owner) opened merge request ${link}> in <${BASE_URL}/acme/website|Website>`,
      `Olga Owner (owner) closed merge request ${link} change> in <${BASE_URL}/acme/website|Website>`,
      `Olga Owner (owner) opened merge request ${link} change> in <${BASE_URL}/acme/website|Website>`,
      `Olga Owner (owner) merged merge request ${link} change> in <${BASE_URL}/acme/website|Website>`,
    ]);
  });
});

describe('emails on push', () => {
  async function outbox(): Promise<{ name: string; text: string }[]> {
    const names = (await readdir(outboxDirectory(context)).catch(() => [] as string[])).filter((n) =>
      n.endsWith('.eml'),
    );
    return Promise.all(
      names
        .sort()
        .map(async (name) => ({ name, text: await readFile(join(outboxDirectory(context), name), 'utf8') })),
    );
  }

  it('writes one message per recipient to the outbox, with the commits and the diff', async () => {
    await putIntegration(context, owner, PROJECT, 'emails-on-push', {
      recipients: 'dev@example.com  ops@example.com',
    });
    const { after } = await push('develop', 'mail.txt');
    await context.jobs.idle();
    const messages = await outbox();
    expect(messages).toHaveLength(2);
    for (const { name } of messages) expect(name).toMatch(/^\d{8}T\d{9}Z-[0-9a-f-]{36}\.eml$/);
    expect(messages.map((m) => /^To: (.*)$/m.exec(m.text)?.[1]).sort()).toEqual([
      'dev@example.com',
      'ops@example.com',
    ]);
    const text = messages[0]?.text ?? '';
    expect(text).toContain('Subject: [Git][acme/website][develop] 1 commit: Add mail.txt\r\n');
    expect(text).toContain('From: "Olga Owner" <noreply@collab.test>\r\n');
    expect(text).toContain(`${BASE_URL}/acme/website/-/commit/${after}`);
    expect(text).toContain('+++ b/mail.txt');
    // The diff, read when the e-mail is written, ends the body after the commits and an empty line.
    expect(text).toContain(
      `/-/commit/${after}\r\n\r\nChanges:\r\n\r\ndiff --git a/mail.txt b/mail.txt\r\nnew file mode 100644\r\n`,
    );
    expect(text.endsWith('\r\n+mail.txt\r\n')).toBe(true);
  });

  it('leaves the diff out with disable_diffs, and sends from the committer with send_from_committer_email', async () => {
    await putIntegration(context, owner, PROJECT, 'emails-on-push', {
      recipients: 'dev@example.com',
      disable_diffs: true,
      send_from_committer_email: true,
      branches_to_be_notified: 'default',
    });
    await push('develop', 'skipped.txt');
    await push('main', 'nodiff.txt');
    await context.jobs.idle();
    const messages = await outbox();
    expect(messages).toHaveLength(1);
    const text = messages[0]?.text ?? '';
    expect(text).toContain('Subject: [Git][acme/website][main] 1 commit: Add nodiff.txt');
    expect(text).toContain('From: "Olga Owner" <owner@example.com>');
    expect(text).not.toContain('+++ b/nodiff.txt');
  });
});

describe('settings through the service', () => {
  it('keeps secrets: stored and used, never returned', async () => {
    const set = await putIntegration(context, owner, PROJECT, 'build-server-a', {
      buildserver_url: 'https://build.example.com',
      build_key: 'K',
      username: 'u',
      password: 'secret-password',
    });
    expect(JSON.stringify(set)).not.toContain('secret-password');
    const read = await getIntegration(context, owner, PROJECT, 'build-server-a');
    expect(read.properties).toEqual({
      buildserver_url: 'https://build.example.com',
      build_key: 'K',
      username: 'u',
    });
    const row = await context.db
      .selectFrom('integrations')
      .select('properties')
      .where('id', '=', read.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.properties).password).toBe('secret-password');
  });
});

describe('the higher-tier slug on the free tier', () => {
  it('does not exist (404), while the others do', async () => {
    const free: ServerContext = { ...context, instance: { ...context.instance, tier: 'free' } };
    const put = putIntegration(free, owner, PROJECT, 'code-host-status', {
      token: 't',
      repository_url: 'https://code.example.com/a/b',
    });
    await expect(put).rejects.toBeInstanceOf(ApiError);
    await expect(put).rejects.toMatchObject({ status: 404 });
    await expect(getIntegration(free, owner, PROJECT, 'code-host-status')).rejects.toMatchObject({
      status: 404,
    });
    const wiki = await putIntegration(free, owner, PROJECT, 'external-wiki', {
      external_wiki_url: 'https://wiki.example.com',
    });
    expect(wiki.properties).toEqual({ external_wiki_url: 'https://wiki.example.com' });
  });
});
