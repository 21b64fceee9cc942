// What the integrations say about an event, built from the project hooks' payloads (GitLab's
// Integrations::ChatMessage::PushMessage, PipelineMessage and MergeMessage, and Emails::EmailsOnPush). Pure functions of the
// payload: no database and no git here. The seeds leave these payloads "not shown".
import type { mergeRequestPayloadFor, pipelinePayloadFor, pushPayloadFor } from '../projectHooks/index.js';

export type PushPayload = NonNullable<Awaited<ReturnType<typeof pushPayloadFor>>>;
export type PipelinePayload = NonNullable<Awaited<ReturnType<typeof pipelinePayloadFor>>>;
export type MergeRequestPayload = NonNullable<Awaited<ReturnType<typeof mergeRequestPayloadFor>>>;

const ZERO_SHA = '0'.repeat(40);
const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

/** The branch or tag name of a ref. */
export function refName(ref: string): string {
  if (ref.startsWith(BRANCH_PREFIX)) return ref.slice(BRANCH_PREFIX.length);
  if (ref.startsWith(TAG_PREFIX)) return ref.slice(TAG_PREFIX.length);
  return ref;
}

/** A chat link: `<url|text>` (the incoming-webhook markup the team chats share). */
const link = (url: string, text: string) => `<${url}|${text}>`;

/** The message a push sends to a team chat. */
export function chatPushText(payload: PushPayload): string {
  const webUrl = payload.project.web_url;
  const name = refName(payload.ref);
  const tag = payload.ref.startsWith(TAG_PREFIX);
  const projectLink = link(webUrl, payload.project.name);
  const refLink = link(`${webUrl}/-/${tag ? 'tags' : 'commits'}/${name}`, name);
  const kind = tag ? 'tag' : 'branch';
  if (payload.after === ZERO_SHA) return `${payload.user_name} removed ${kind} ${name} from ${projectLink}`;
  if (payload.before === ZERO_SHA)
    return `${payload.user_name} pushed new ${kind} ${refLink} to ${projectLink}`;
  const compare = link(
    `${webUrl}/-/compare/${payload.before.slice(0, 8)}...${payload.after.slice(0, 8)}`,
    'Compare changes',
  );
  const lines = [`${payload.user_name} pushed to ${kind} ${refLink} of ${projectLink} (${compare})`];
  for (const commit of payload.commits) {
    lines.push(`${link(commit.url, commit.id.slice(0, 8))}: ${commit.title} - ${commit.author.name}`);
  }
  return lines.join('\n');
}

/**
 * The message a merge request's opening, closing, reopening or merge sends to a team chat (GitLab's
 * MergeMessage: `<user> (<username>) <state> merge request <!iid title> in <project>`; updates send none).
 */
export function chatMergeRequestText(payload: MergeRequestPayload): string {
  const mr = payload.object_attributes;
  const user = `${payload.user.name} (${payload.user.username})`;
  const projectLink = link(payload.project.web_url, payload.project.name);
  return `${user} ${mr.state} merge request ${link(mr.url, `!${mr.iid} ${mr.title}`)} in ${projectLink}`;
}

/** `mm:ss`, or `h:mm:ss` past an hour (GitLab's duration of a pipeline message). */
function clock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** The message a finished pipeline sends to a team chat. */
export function chatPipelineText(payload: PipelinePayload): string {
  const pipeline = payload.object_attributes;
  const webUrl = payload.project.web_url;
  const kind = pipeline.tag ? 'tag' : 'branch';
  const refLink = link(`${webUrl}/-/${pipeline.tag ? 'tags' : 'commits'}/${pipeline.ref}`, pipeline.ref);
  const by = payload.user ? ` by ${payload.user.name} (${payload.user.username})` : '';
  const outcome = pipeline.status === 'success' ? 'passed' : pipeline.status;
  return `Pipeline ${link(pipeline.url, `#${pipeline.id}`)} of ${kind} ${refLink}${by} ${outcome} in ${clock(pipeline.duration ?? 0)}`;
}

/** The commit status a code host takes for a pipeline status. */
export function commitState(status: string): 'pending' | 'success' | 'failure' | 'error' {
  if (status === 'success') return 'success';
  if (status === 'failed') return 'failure';
  if (status === 'canceled' || status === 'skipped') return 'error';
  return 'pending';
}

/** The body of the commit status a pipeline sends to the code host (GitLab's GitHub StatusMessage). */
export function commitStatusBody(payload: PipelinePayload, instanceHost: string, staticContext: boolean) {
  const pipeline = payload.object_attributes;
  return {
    state: commitState(pipeline.status),
    target_url: pipeline.url,
    description: `Pipeline #${pipeline.id} ${pipeline.status === 'success' ? 'passed' : pipeline.status} on Collab`,
    context: staticContext ? `ci/collab/${instanceHost}` : `ci/collab/${pipeline.ref}`,
  };
}

/** A header value on one line (a name or commit title must not start a header of its own). */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

export interface PushEmail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  messageId: string;
  date: Date;
  /** The diff of the push, or null (diffs disabled, a tag, a deletion). */
  diff: string | null;
}

/** The subject of a push e-mail (GitLab's EmailsOnPush: `[Git][group/project][branch] 2 commits: Title`). */
export function pushEmailSubject(payload: PushPayload): string {
  const prefix = `[Git][${payload.project.path_with_namespace}]`;
  const name = refName(payload.ref);
  const kind = payload.ref.startsWith(TAG_PREFIX) ? 'tag' : 'branch';
  if (payload.after === ZERO_SHA) return `${prefix} Deleted ${kind} ${name}`;
  if (kind === 'tag') return `${prefix} Pushed new tag ${name}`;
  const count = payload.total_commits_count;
  const last = payload.commits.at(-1);
  if (count === 0 || !last) return `${prefix} Pushed new branch ${name}`;
  return `${prefix}[${name}] ${count === 1 ? '1 commit' : `${count} commits`}: ${last.title}`;
}

/** A push e-mail as an RFC 5322 message (plain text, UTF-8): the file the outbox holds. */
export function pushEmailText(payload: PushPayload, email: PushEmail): string {
  const text = pushEmailWithoutDiff(payload, email);
  return email.diff && payload.after !== ZERO_SHA ? withPushDiff(text, email.diff) : text;
}

/**
 * A push e-mail made without its diff, with the diff added: what pushEmailText gives with it. The diff is the
 * body's last part, so an e-mail can be composed when the push happens and get its diff when it is sent.
 */
export function withPushDiff(email: string, diff: string): string {
  // The body ends with an empty line then the final CRLF: the diff follows the empty line.
  return `${email.slice(0, -2)}\r\nChanges:\r\n\r\n${diff.trimEnd().replace(/\r?\n/g, '\r\n')}\r\n`;
}

function pushEmailWithoutDiff(payload: PushPayload, email: PushEmail): string {
  const headers = [
    `From: "${oneLine(email.from.name).replace(/"/g, "'")}" <${oneLine(email.from.address)}>`,
    `To: ${oneLine(email.to)}`,
    `Subject: ${oneLine(email.subject)}`,
    `Date: ${email.date.toUTCString()}`,
    `Message-ID: <${email.messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    `X-Collab-Project: ${oneLine(payload.project.path_with_namespace)}`,
    `X-Collab-Ref: ${oneLine(payload.ref)}`,
  ];
  const body: string[] = [];
  const name = refName(payload.ref);
  if (payload.after === ZERO_SHA) {
    body.push(`${payload.user_name} deleted ${name} from ${payload.project.web_url}.`);
  } else {
    body.push(`${payload.user_name} pushed to ${name} at ${payload.project.web_url}`, '');
    if (payload.commits.length > 0) body.push('Commits:', '');
    for (const commit of payload.commits) {
      body.push(
        `${commit.id.slice(0, 8)} by ${commit.author.name} at ${commit.timestamp}`,
        '',
        ...commit.message
          .trimEnd()
          .split('\n')
          .map((line) => `    ${line}`),
        '',
        commit.url,
        '',
      );
    }
    if (payload.total_commits_count > payload.commits.length)
      body.push(`(and ${payload.total_commits_count - payload.commits.length} earlier commits)`, '');
  }
  return `${headers.join('\r\n')}\r\n\r\n${body.join('\n').replace(/\r?\n/g, '\r\n')}\r\n`;
}
