// Project-list rows of the benchmark: `GET /projects` (full form, 20 per page) and `GET /groups` on an
// instance of 10 projects and on one of 10,000. The large figure must stay close to the small one: a list
// reads its page, and its visibility and membership rules are SQL, not a walk over every project.
//
// The demo fixtures hold 4 projects in 3 groups; the rest are written straight into the stopped server's
// database, 10 projects per new group, as public, internal and private in turn. The caller (the demo
// maintainer) is a developer of every second new group, so that membership decides what a page holds.
// Projects need no repository for a list: nothing is committed.
import { join } from 'node:path';
import { SQLite } from '../src/core/store/sqliteDriver.js';

export const PROJECT_SCALE_SIZES = [10, 10_000] as const;
/** The page size of the project list rows: the API's default. */
export const PROJECT_SCALE_PER_PAGE = 20;
const PROJECTS_PER_GROUP = 10;
const VISIBILITIES = ['public', 'internal', 'private'] as const;

/** Adds projects (and groups for them) to a stopped server's data directory until it holds `size`. */
export function seedProjectScale(dataDir: string, size: number): void {
  const db = new SQLite(join(dataDir, 'collab.sqlite3'));
  try {
    const userId = (db.prepare("select id from users where username = 'maintainer'").get() as { id: number })
      .id;
    const existing = (db.prepare('select count(*) as n from projects').get() as { n: number }).n;
    const now = new Date().toISOString();
    const insertGroup = db.prepare(
      `insert into groups (name, path, full_path, parent_id, visibility, description, created_at)
       values (?, ?, ?, null, ?, '', ?)`,
    );
    const insertMember = db.prepare(
      `insert into members (source_type, source_id, user_id, access_level, created_at)
       values ('Group', ?, ?, 30, ?)`,
    );
    const insertProject = db.prepare(
      `insert into projects (name, path, namespace_id, visibility, description, default_branch, archived,
         repository_storage, creator_id, created_at, last_activity_at, repository_generation)
       values (?, ?, ?, ?, ?, 'main', 0, 'default', ?, ?, ?, 0)`,
    );
    db.transaction(() => {
      let groupId = 0;
      let groupVisibility = 'public';
      for (let i = 0; i < size - existing; i++) {
        if (i % PROJECTS_PER_GROUP === 0) {
          const number = String(i / PROJECTS_PER_GROUP).padStart(5, '0');
          const path = `bench-${number}`;
          // Every fourth group is private (and so are its projects: a project is never more visible than its
          // group); the others are public.
          groupVisibility = i % (4 * PROJECTS_PER_GROUP) === 0 ? 'private' : 'public';
          groupId = Number(
            insertGroup.run(`Bench ${number}`, path, path, groupVisibility, now).lastInsertRowid,
          );
          if ((i / PROJECTS_PER_GROUP) % 2 === 0) insertMember.run(groupId, userId, now);
        }
        const visibility =
          groupVisibility === 'private' ? 'private' : (VISIBILITIES[i % VISIBILITIES.length] ?? 'public');
        const name = `Project ${String(i).padStart(5, '0')}`;
        const path = `project-${String(i).padStart(5, '0')}`;
        insertProject.run(name, path, groupId, visibility, `${name} of the benchmark.`, userId, now, now);
      }
    })();
  } finally {
    db.close();
  }
}

/** The list URLs measured on each instance, by row name. */
export function projectScaleLists(origin: string): [string, string][] {
  const page = `per_page=${PROJECT_SCALE_PER_PAGE}`;
  return [
    ['list projects', `${origin}/api/v4/projects?${page}`],
    ['list groups', `${origin}/api/v4/groups?${page}`],
  ];
}
