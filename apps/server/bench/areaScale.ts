// Scale rows of the benchmark for the lists of document 2: an issue's notes, a group's epics and the caller's
// to-dos, each on 10 and on 10,000 items, read a page of the same size, so that only the collection differs.
// Each size has its own public group (its epics), its own public project under it (an issue holding the
// notes, and the issues the to-dos are about) and its own user (whose to-dos they are: half about the
// group's epics, half about the project's issues, as a dashboard mixes them).
//
// The items are written straight into the stopped server's database (SQL inserts in one transaction), which
// takes a second where 40,000 API calls would take many minutes.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';

export const AREA_SCALE_SIZES = [10, 10_000] as const;
/** Every list is read with this page size, so that both sizes answer a page of the same length. */
export const AREA_SCALE_PER_PAGE = 10;

/** The group (and project) path of a size. */
function scalePath(size: number): string {
  return `area-scale-${size}`;
}

function username(size: number): string {
  return `bench-${size}`;
}

/** The token of the user whose to-dos are listed on an instance of `size` items. */
export function areaScaleToken(size: number): string {
  return `collab-bench-${size}-token`;
}

/**
 * The demo fixtures plus, per size: a user with a token, a public group the maintainer owns, and a public
 * project in it with one issue (the one whose notes are listed).
 */
export async function writeAreaScaleFixtures(demoPath: string, target: string): Promise<void> {
  const fixtures = JSON.parse(await readFile(demoPath, 'utf8')) as {
    users: unknown[];
    groups: unknown[];
    projects: unknown[];
  };
  for (const size of AREA_SCALE_SIZES) {
    fixtures.users.push({
      username: username(size),
      name: `Bench ${size}`,
      email: `${username(size)}@example.com`,
      tokens: [{ name: 'bench', token: areaScaleToken(size), scopes: ['api'] }],
    });
    fixtures.groups.push({
      path: scalePath(size),
      name: `Area scale ${size}`,
      visibility: 'public',
      description: `${size} epics.`,
      members: [
        { username: 'maintainer', access_level: 50 },
        { username: username(size), access_level: 30 },
      ],
    });
    fixtures.projects.push({
      namespace: scalePath(size),
      path: scalePath(size),
      name: `Area scale ${size}`,
      visibility: 'public',
      creator: 'maintainer',
      description: `An issue of ${size} notes, and the issues of ${size / 2} to-dos.`,
      issues: [
        { title: `An issue of ${size} notes`, author: 'maintainer', description: 'Discussed at length.' },
      ],
    });
  }
  await writeFile(target, JSON.stringify(fixtures));
}

/** Fills each size's group, project and user of a stopped server's data directory with their items. */
export function seedAreaScale(dataDir: string): void {
  const db = new SQLite(join(dataDir, 'collab.sqlite3'));
  try {
    const id = (sql: string, ...values: unknown[]): number =>
      (db.prepare(sql).get(...values) as { id: number }).id;
    const maintainerId = id("select id from users where username = 'maintainer'");
    const insertNote = db.prepare(
      `insert into notes (noteable_type, noteable_id, project_id, group_id, author_id, body, system,
         confidential, created_at, updated_at)
       values ('Issue', ?, ?, null, ?, ?, 0, 0, ?, ?)`,
    );
    const insertEpic = db.prepare(
      `insert into epics (group_id, iid, title, description, state, author_id, created_at, updated_at)
       values (?, ?, ?, ?, 'opened', ?, ?, ?)`,
    );
    const insertIssue = db.prepare(
      `insert into issues (project_id, iid, title, description, state, author_id, created_at, updated_at)
       values (?, ?, ?, ?, 'opened', ?, ?, ?)`,
    );
    const insertTodo = db.prepare(
      `insert into todos (user_id, author_id, project_id, group_id, target_type, target_id, action, body,
         note_id, state, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'marked', ?, null, 'pending', ?, ?)`,
    );
    const setCounter = db.prepare(
      `insert into group_internal_ids (group_id, usage, last_value) values (?, 'epics', ?)
       on conflict (group_id, usage) do update set last_value = excluded.last_value`,
    );
    const setIssueCounter = db.prepare(
      "update internal_ids set last_value = ? where project_id = ? and usage = 'issues'",
    );
    db.transaction(() => {
      for (const size of AREA_SCALE_SIZES) {
        const groupId = id('select id from groups where full_path = ?', scalePath(size));
        const projectId = id(
          'select id from projects where namespace_id = ? and path = ?',
          groupId,
          scalePath(size),
        );
        const issueId = id('select id from issues where project_id = ? and iid = 1', projectId);
        const userId = id('select id from users where username = ?', username(size));
        // One second apart, oldest first, so that every order has a single answer.
        const start = Date.now() - size * 1000;
        const at = (i: number) => new Date(start + i * 1000).toISOString();
        for (let i = 0; i < size; i++) {
          insertNote.run(
            issueId,
            projectId,
            maintainerId,
            `Note ${i}: a comment of a few words.`,
            at(i),
            at(i),
          );
          insertEpic.run(groupId, i + 1, `Epic ${i}`, `The epic number ${i}.`, maintainerId, at(i), at(i));
        }
        setCounter.run(groupId, size);
        const epicIds = (
          db.prepare('select id from epics where group_id = ? order by iid').all(groupId) as { id: number }[]
        ).map((row) => row.id);
        // The to-dos: even ones about the group's epics, odd ones about issues 2, 3 … of the project.
        for (let i = 0; i < size; i++) {
          if (i % 2 === 0) {
            const epicId = epicIds[i / 2] ?? 0;
            insertTodo.run(
              userId,
              maintainerId,
              null,
              groupId,
              'Epic',
              epicId,
              `Epic ${i / 2}`,
              at(i),
              at(i),
            );
          } else {
            const iid = (i + 1) / 2 + 1;
            const title = `Issue ${iid}`;
            const issue = insertIssue.run(projectId, iid, title, 'To do.', maintainerId, at(i), at(i));
            const target = Number(issue.lastInsertRowid);
            insertTodo.run(userId, maintainerId, projectId, null, 'Issue', target, title, at(i), at(i));
          }
        }
        setIssueCounter.run(size / 2 + 1, projectId);
      }
    })();
  } finally {
    db.close();
  }
}

/** The lists measured on an instance, by row name: each the URL and the headers of its caller. */
export function areaScaleLists(
  origin: string,
  size: number,
  maintainerToken: string,
): { name: string; url: string; headers: Record<string, string> }[] {
  const page = `per_page=${AREA_SCALE_PER_PAGE}`;
  const path = encodeURIComponent(scalePath(size));
  const asMaintainer = { 'PRIVATE-TOKEN': maintainerToken };
  return [
    {
      name: "list an issue's notes",
      url: `${origin}/api/v4/projects/${path}%2F${path}/issues/1/notes?${page}`,
      headers: asMaintainer,
    },
    {
      name: "list a group's epics",
      url: `${origin}/api/v4/groups/${path}/epics?${page}`,
      headers: asMaintainer,
    },
    {
      name: "list the caller's todos",
      url: `${origin}/api/v4/todos?${page}`,
      headers: { 'PRIVATE-TOKEN': areaScaleToken(size) },
    },
  ];
}
