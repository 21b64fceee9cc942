// Sending what the integrations say, from the job queue (never on a request's path): one job per attempt,
// with the project hooks' sender, timeout and retry delays. A job carries the message without the
// integration's secrets; the target (URL, token, password) is read from the integration's settings when the
// job runs, so a deleted or edited integration never receives an old message at an old address. E-mails are
// written to the outbox under the data directory, one file per message; a push e-mail's diff is read then.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findProject } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryOf } from '../../core/git/repositories.js';
import { GitError } from '../../core/git/repository.js';
import { DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS, postJson } from '../projectHooks/index.js';
import { CATALOG, type Slug } from './catalog.js';
import { withPushDiff } from './messages.js';
import { readSettings, type Settings, text } from './settings.js';
import { findIntegrationById } from './store.js';

export const INTEGRATION_DELIVERY_JOB = 'integration.deliver';

/** What one job sends; secrets come from the integration when it runs. */
export type Message =
  | { kind: 'chat'; text: string }
  | { kind: 'buildTrigger' }
  | { kind: 'ciHook'; event: string; owner: string; name: string; body: string }
  | { kind: 'commitStatus'; sha: string; body: string }
  | { kind: 'email'; file: string; diff?: PushDiffRange };

/** The commits a push e-mail's diff compares (`from` null: the empty tree), in the project's repository. */
export interface PushDiffRange {
  projectId: number;
  from: string | null;
  to: string;
}

/** The largest diff a push e-mail carries. */
const EMAIL_DIFF_LIMIT = 100_000;

export interface DeliveryJob {
  integrationId: number;
  /** Attempts made before this one. */
  attempt: number;
  message: Message;
}

export interface IntegrationDeliveryOptions {
  /** How long an attempt waits for the answer. */
  timeoutMs: number;
  /** The delay before each retry: attempts = retries + 1. */
  retryDelaysMs: readonly number[];
}

export const DEFAULT_INTEGRATION_DELIVERY: IntegrationDeliveryOptions = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
};

/** The folder e-mails are written to. */
export function outboxDirectory(context: ServerContext): string {
  return join(context.dataDir, 'outbox');
}

export async function queueMessage(
  context: ServerContext,
  integrationId: number,
  message: Message,
): Promise<void> {
  await context.jobs.enqueue(INTEGRATION_DELIVERY_JOB, {
    integrationId,
    attempt: 0,
    message,
  } satisfies DeliveryJob);
}

interface HttpRequest {
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');
const JSON_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'Collab-Integration' };

/** The request that sends `message` with the integration's current settings; null when they lack a target. */
export function requestFor(
  message: Exclude<Message, { kind: 'email' }>,
  settings: Settings,
): HttpRequest | null {
  switch (message.kind) {
    case 'chat':
      return {
        method: 'POST',
        url: text(settings, 'webhook'),
        headers: JSON_HEADERS,
        body: JSON.stringify({ text: message.text }),
        verifyTls: true,
      };
    case 'buildTrigger': {
      // The build server's remote trigger: a GET with the plan's key, as the configured user.
      const credentials = `${text(settings, 'username')}:${text(settings, 'password')}`;
      const key = encodeURIComponent(text(settings, 'build_key'));
      return {
        method: 'GET',
        url: `${withoutTrailingSlash(text(settings, 'buildserver_url'))}/updateAndBuild.action?buildKey=${key}`,
        headers: {
          'User-Agent': 'Collab-Integration',
          Authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        },
        body: '',
        verifyTls: true,
      };
    }
    case 'ciHook': {
      const query = new URLSearchParams({
        owner: message.owner,
        name: message.name,
        access_token: text(settings, 'token'),
      });
      return {
        method: 'POST',
        url: `${withoutTrailingSlash(text(settings, 'ci_server_url'))}/hook?${query}`,
        headers: { ...JSON_HEADERS, 'X-Service-Event': message.event },
        body: message.body,
        verifyTls: settings.enable_ssl_verification !== false,
      };
    }
    case 'commitStatus': {
      const repository = repositoryOnHost(text(settings, 'repository_url'));
      if (!repository) return null;
      return {
        method: 'POST',
        url: `${repository.origin}/api/v3/repos/${repository.owner}/${repository.name}/statuses/${message.sha}`,
        headers: {
          ...JSON_HEADERS,
          Accept: 'application/json',
          Authorization: `token ${text(settings, 'token')}`,
        },
        body: message.body,
        verifyTls: true,
      };
    }
  }
}

/** `https://host/owner/repo(.git)` → the host's origin, the owner and the repository's name. */
export function repositoryOnHost(url: string): { origin: string; owner: string; name: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const [owner, repo] = parsed.pathname.split('/').filter(Boolean);
  if (!owner || !repo) return null;
  return { origin: parsed.origin, owner, name: repo.replace(/\.git$/, '') };
}

/** A push e-mail's diff; null when the project or its commits are gone, or git cannot read them now. */
async function readPushDiff(context: ServerContext, range: PushDiffRange): Promise<string | null> {
  const project = await findProject(context.db, String(range.projectId));
  if (!project) return null;
  try {
    return await repositoryOf(context, project).diffBetween(range.from, range.to, EMAIL_DIFF_LIMIT);
  } catch (error) {
    // A repository git cannot read right now (being moved) still gets its e-mail, without the diff.
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** Writes one e-mail to the outbox: under a temporary name first, so a reader never sees half a message. */
async function writeToOutbox(context: ServerContext, file: string): Promise<void> {
  const directory = outboxDirectory(context);
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const name = `${stamp}-${randomUUID()}.eml`;
  const temporary = join(directory, `.${name}.tmp`);
  try {
    await writeFile(temporary, file, 'utf8');
  } catch (error) {
    // The outbox is made when its first message comes (or after someone removed it): not looked for
    // before every message.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(directory, { recursive: true });
    await writeFile(temporary, file, 'utf8');
  }
  await rename(temporary, join(directory, name));
}

/** Runs one attempt; a failed one queues the next after its delay, until the attempts run out. */
export async function attemptMessage(
  context: ServerContext,
  job: DeliveryJob,
  options: IntegrationDeliveryOptions,
): Promise<void> {
  const integration = await findIntegrationById(context.db, job.integrationId);
  // Deleted or turned off since the event: nothing to send.
  if (integration?.active !== 1 || !(integration.slug in CATALOG)) return;
  const { message } = job;
  if (message.kind === 'email') {
    if (CATALOG[integration.slug as Slug].firing !== 'email') return;
    const diff = message.diff ? await readPushDiff(context, message.diff) : null;
    await writeToOutbox(context, diff ? withPushDiff(message.file, diff) : message.file);
    return;
  }
  const request = requestFor(message, readSettings(integration));
  if (!request) return;
  const result = await postJson(request.url, request.body, request.headers, {
    timeoutMs: options.timeoutMs,
    verifyTls: request.verifyTls,
    method: request.method,
  });
  if (result.status !== null && result.status >= 200 && result.status < 300) return;
  const retryInMs = options.retryDelaysMs[job.attempt];
  if (retryInMs === undefined) return;
  await context.jobs.enqueue(
    INTEGRATION_DELIVERY_JOB,
    { ...job, attempt: job.attempt + 1 } satisfies DeliveryJob,
    { delayMs: retryInMs },
  );
}

export function registerIntegrationDeliveryJob(
  context: ServerContext,
  options: IntegrationDeliveryOptions,
): void {
  context.jobs.register(INTEGRATION_DELIVERY_JOB, async (payload) => {
    await attemptMessage(context, payload as DeliveryJob, options);
  });
}
