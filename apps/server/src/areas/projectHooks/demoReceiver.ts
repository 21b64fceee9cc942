// A receiver for the demo's project hooks: `pnpm --filter @collab/server hook-receiver` listens on
// 127.0.0.1:3001 (PORT to change it), where the hooks of apps/server/fixtures/demo.json point, and prints
// each delivery: its event, token and a summary of the payload. Run it beside `pnpm start`, then commit a
// file to acme/website (or start a pipeline) and watch the events arrive. Not part of the server.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 3001);

/** One line about a payload: the ref and commits of a push, the status of a pipeline. */
function summary(payload: Record<string, unknown>): string {
  if (payload.object_kind === 'pipeline') {
    const attributes = payload.object_attributes as { id?: number; ref?: string; status?: string };
    return `pipeline ${attributes.id} on ${attributes.ref}: ${attributes.status}`;
  }
  const commits = (payload.commits as { id: string; title: string }[] | undefined) ?? [];
  const lines = commits.map((commit) => `\n    ${commit.id.slice(0, 8)} ${commit.title}`).join('');
  return `${payload.object_kind} ${payload.ref}: ${payload.before} → ${payload.after} (${payload.total_commits_count} commits)${lines}`;
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let text: string;
    try {
      text = summary(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
    } catch {
      text = `${chunks.length === 0 ? 'no' : 'a non-JSON'} body`;
    }
    const token = req.headers['x-service-token'] ? ' (with token)' : '';
    console.log(
      `${new Date().toISOString()} ${req.method} ${req.url} ${req.headers['x-service-event']}${token}: ${text}`,
    );
    res.writeHead(200).end();
  });
}).listen(port, '127.0.0.1', () => {
  console.log(`Hook receiver listening on http://127.0.0.1:${port}/ (the demo hooks post to /demo-hooks/…)`);
});
