// The epics of a fixtures file's groups. Dates are fixed ones; a parent without fixed dates inherits its
// children's (the earliest start and the latest due date), as this area keeps them, children being listed
// after their parents.
import type { AreaFixtures } from '../../core/area.js';
import type { Db } from '../../core/store/database.js';
import { daysBefore } from '../../core/store/fixtures.js';
import type { FixtureEpic } from '../../core/store/fixturesFile.js';
import { insertFixtureEpic, setEpicCounter, setEpicDates } from './store.js';

async function loadEpics(
  trx: Db,
  groupId: number,
  epics: readonly FixtureEpic[],
  userId: (username: string) => number,
): Promise<void> {
  const rows: { id: number; parent: number | undefined; start: string | null; due: string | null }[] = [];
  for (const [index, epic] of epics.entries()) {
    const createdAt = daysBefore(epic.created_days_ago);
    const parent = epic.parent === undefined ? undefined : rows[epic.parent - 1];
    if (epic.parent !== undefined && (!parent || epic.parent > index))
      throw new Error(
        `fixtures: epic ${index + 1} names parent ${epic.parent}, which is not an earlier epic`,
      );
    const start = epic.start_date_fixed ?? null;
    const due = epic.due_date_fixed ?? null;
    const id = await insertFixtureEpic(
      trx,
      {
        group_id: groupId,
        iid: index + 1,
        parent_id: parent?.id ?? null,
        title: epic.title,
        description: epic.description ?? null,
        state: epic.closed_by ? 'closed' : 'opened',
        confidential: epic.confidential ? 1 : 0,
        author_id: userId(epic.author),
        start_date_is_fixed: start === null ? 0 : 1,
        start_date_fixed: start,
        start_date_inherited: null,
        start_date: start,
        due_date_is_fixed: due === null ? 0 : 1,
        due_date_fixed: due,
        due_date_inherited: null,
        end_date: due,
        closed_at: epic.closed_by ? createdAt : null,
        closed_by_id: epic.closed_by ? userId(epic.closed_by) : null,
        created_at: createdAt,
        updated_at: createdAt,
      },
      epic.labels ?? [],
      Object.entries(epic.award_emoji ?? {}).flatMap(([name, usernames]) =>
        usernames.map((username) => ({ name, userId: userId(username) })),
      ),
    );
    rows.push({ id, parent: epic.parent, start, due });
  }
  // Children come after their parents: walking backwards, a child's effective dates are final before its
  // parent's inherited ones are taken from them.
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (!row) continue;
    const children = rows.filter((child) => child.parent === index + 1);
    const starts = children.flatMap((child) => (child.start === null ? [] : [child.start])).sort();
    const dues = children.flatMap((child) => (child.due === null ? [] : [child.due])).sort();
    const startInherited = starts[0] ?? null;
    const dueInherited = dues.at(-1) ?? null;
    if (row.start === null) row.start = startInherited;
    if (row.due === null) row.due = dueInherited;
    await setEpicDates(trx, row.id, {
      start_date_inherited: startInherited,
      due_date_inherited: dueInherited,
      start_date: row.start,
      end_date: row.due,
    });
  }
  if (epics.length > 0) await setEpicCounter(trx, groupId, epics.length);
}

export const epicsFixtures: AreaFixtures = {
  after: ['users', 'groups'],
  async load({ fixtures, trx, users, groups }) {
    for (const group of fixtures.groups) {
      if (!group.epics) continue;
      const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
      await loadEpics(trx, groups.get(fullPath), group.epics, (username) => users.get(username));
    }
  },
};
