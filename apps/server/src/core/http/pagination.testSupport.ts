// The server of the list tests: the demo fixtures on a fresh data directory, responses validated against
// the spec, listening on a port of its own, and one GET that returns the status, the page headers and the
// parsed body.
import { fileURLToPath } from 'node:url';
import type { CollabApp } from '../../app.js';
import { startAppServer } from '../../appServer.testSupport.js';
import { DEMO_FIXTURES_PATH } from '../../config.js';
import { readFixturesFile } from '../store/fixturesFile.js';

export const ADMIN_TOKEN = 'collab-demo-admin-token';
export const MAINTAINER_TOKEN = 'collab-demo-maintainer-token';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface ListServer {
  app: CollabApp;
  get(path: string, token?: string): Promise<Answer>;
  send(method: string, path: string, token?: string): Promise<Answer>;
  close(): Promise<void>;
}

const PAGE_HEADERS = [
  'x-total',
  'x-total-pages',
  'x-per-page',
  'x-page',
  'x-next-page',
  'x-prev-page',
  'link',
];

export async function startListServer(): Promise<ListServer> {
  const server = await startAppServer('lists', {
    fixtures: await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)),
  });
  async function send(method: string, path: string, token = MAINTAINER_TOKEN): Promise<Answer> {
    const response = await fetch(`${server.base}${path}`, { method, headers: { 'PRIVATE-TOKEN': token } });
    const headers: Record<string, string> = {};
    for (const name of PAGE_HEADERS) headers[name] = response.headers.get(name) ?? '(none)';
    const text = await response.text();
    return { status: response.status, headers, body: text === '' ? undefined : JSON.parse(text) };
  }
  return {
    app: server.app,
    get: (path, token) => send('GET', path, token),
    send,
    close: () => server.close(),
  };
}

/** The page headers GitLab sends for page `page` of `total` items, `perPage` a page (Link aside). */
export function pageHeaders(total: number, page: number, perPage: number): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return {
    'x-total': String(total),
    'x-total-pages': String(totalPages),
    'x-per-page': String(perPage),
    'x-page': String(page),
    'x-next-page': page < totalPages ? String(page + 1) : '',
    'x-prev-page': page > 1 ? String(page - 1) : '',
  };
}
