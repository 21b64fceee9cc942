// Sending hook deliveries (GitLab's WebHookService): one queue job per attempt, never on a request's path.
// An event records one delivery per hook (its body built once) and queues its first attempt; an attempt
// that fails (a status outside 2xx, a refused connection, no answer within the timeout) queues the next one
// after a growing delay, until the attempts run out and the delivery is marked failed, or until its hook is
// backed off for failing again and again (backoff.ts).
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { ServerContext } from '../../core/context.js';
import { afterAttempt, hookExecutable } from './backoff.js';
import {
  findDeliveryToSend,
  findHookFailureState,
  type HookRow,
  insertDelivery,
  recordAttempt,
  updateHookFailureState,
} from './store.js';

export const DELIVERY_JOB = 'projectHook.deliver';
/** The error of a delivery whose hook was backed off when its attempt came (GitLab's words). */
export const HOOK_DISABLED = 'Hook disabled';

export interface DeliveryPayload {
  deliveryId: number;
}

export interface DeliveryOptions {
  /** Scheme, host and port of this server: the `X-Service-Instance` header. */
  instanceUrl: string;
  /** How long an attempt waits for the answer (GitLab's webhook timeout: 10 s). */
  timeoutMs: number;
  /** The delay before each retry: attempts = retries + 1. */
  retryDelaysMs: readonly number[];
}

/** 5 attempts in about 40 minutes: after 10 s, 1 min, 5 min and 30 min. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000, 1_800_000];
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Records one delivery of `payload` per hook and queues the first attempt of each, in one transaction: a
 * delivery never exists without its attempt, and the event's writes cost one commit.
 */
export async function queueDeliveries(
  context: ServerContext,
  hooks: readonly HookRow[],
  event: string,
  payload: unknown,
): Promise<void> {
  const body = JSON.stringify(payload);
  const eventUuid = randomUUID();
  await context.db.transaction().execute(async (trx) => {
    for (const hook of hooks) {
      const deliveryId = await insertDelivery(trx, { hookId: hook.id, event, eventUuid, payload: body });
      await context.jobs.enqueue(DELIVERY_JOB, { deliveryId } satisfies DeliveryPayload, { executor: trx });
    }
  });
}

/** What an attempt got: the response's status, or why there was none. */
export interface AttemptResult {
  status: number | null;
  error: string | null;
}

/**
 * POSTs `body` to `url` (or sends it with `options.method`) and waits for the response's status (its body is
 * not read). Never throws: a bad URL, a refused connection or the timeout come back as the error.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; verifyTls: boolean; method?: 'POST' | 'GET' },
): Promise<AttemptResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { status: null, error: 'invalid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return { status: null, error: `unsupported scheme ${target.protocol}` };
  // node:https (and TLS behind it) is loaded by the first https delivery, not at every start of the server.
  const send = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      target,
      {
        method: options.method ?? 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        rejectUnauthorized: options.verifyTls,
      },
      (res) => {
        // The status is all we need; the body is drained so the socket is freed.
        res.resume();
        res.on('error', () => undefined);
        settle({ status: res.statusCode ?? null, error: null });
      },
    );
    // The whole attempt, connection included, has the timeout (a socket timeout only counts idle time).
    const timer = setTimeout(() => {
      settle({ status: null, error: `no answer within ${options.timeoutMs / 1000} s` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => settle({ status: null, error: error.message }));
    req.end(body);
  });
}

/**
 * Runs one attempt of a delivery and records it, with its hook's failure state (backoff.ts); a failed attempt
 * queues the next one, if any is left and the hook is not backed off. A delivery whose hook is backed off
 * ends failed without being sent.
 */
export async function attemptDelivery(
  context: ServerContext,
  deliveryId: number,
  options: DeliveryOptions,
): Promise<void> {
  const delivery = await findDeliveryToSend(context.db, deliveryId);
  // Gone with its hook or project, or already settled (this attempt runs again after a restart).
  if (delivery?.state !== 'pending') return;
  if (!hookExecutable(delivery, Date.now())) {
    await recordAttempt(context.db, deliveryId, {
      state: 'failed',
      attempts: delivery.attempts,
      status: null,
      error: HOOK_DISABLED,
    });
    return;
  }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Collab-Hook',
    // GitLab's X-Gitlab-Event, X-Gitlab-Instance, X-Gitlab-Event-UUID and X-Gitlab-Token, de-branded.
    'X-Service-Event': delivery.event,
    'X-Service-Instance': options.instanceUrl,
    'X-Service-Event-UUID': delivery.event_uuid,
  };
  if (delivery.token) headers['X-Service-Token'] = delivery.token;
  const result = await postJson(delivery.url, delivery.payload, headers, {
    timeoutMs: options.timeoutMs,
    verifyTls: delivery.enable_ssl_verification === 1,
  });
  const attempts = delivery.attempts + 1;
  const delivered = result.status !== null && result.status >= 200 && result.status < 300;
  const error = delivered ? null : (result.error ?? `HTTP ${result.status}`);
  // The attempt, the hook's failure state and the next attempt's job in one commit.
  await context.db.transaction().execute(async (trx) => {
    const now = Date.now();
    let hook = (await findHookFailureState(trx, delivery.hook_id)) ?? delivery;
    const next = afterAttempt(hook, delivered, now);
    if (next) {
      await updateHookFailureState(trx, delivery.hook_id, next);
      hook = next;
    }
    const retryInMs =
      delivered || !hookExecutable(hook, now) ? undefined : options.retryDelaysMs[attempts - 1];
    const state = delivered ? 'delivered' : retryInMs === undefined ? 'failed' : 'pending';
    await recordAttempt(trx, deliveryId, { state, attempts, status: result.status, error });
    if (retryInMs !== undefined)
      await context.jobs.enqueue(DELIVERY_JOB, { deliveryId } satisfies DeliveryPayload, {
        delayMs: retryInMs,
        executor: trx,
      });
  });
}

export function registerDeliveryJob(context: ServerContext, options: DeliveryOptions): void {
  context.jobs.register(DELIVERY_JOB, async (payload) => {
    await attemptDelivery(context, (payload as DeliveryPayload).deliveryId, options);
  });
}
