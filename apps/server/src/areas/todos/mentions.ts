// `@username` mentions in a text (an issue description, a note) and the to-dos they make (GitLab's
// TodoService#create_mention_todos): users named at the very start of the text are `directly_addressed`,
// the others `mentioned`; each user gets one to-do, and only users who may read the target get one.
import type { Db } from '../../core/store/database.js';
import { activeUsersNamed, insertTodo, type NewTodo, userIdsNamed } from './store.js';

// A username as GitLab allows it, after an `@` that does not follow a word character (so e-mail addresses
// are no mentions). A trailing `.` ends a sentence, not the username.
const MENTION = /(?<![\w@])@([A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])/g;
// The mentions at the start of a text, before any other word.
const LEADING_MENTIONS = /^(?:\s*@([A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])[\s,]*)+/;

/** The usernames a text mentions, lower-cased, without repeats, in order. */
export function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const names: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const name = match[1]?.toLowerCase();
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The usernames at the very start of the text (GitLab's directly addressed users), lower-cased. */
export function directlyAddressedUsernames(text: string | null | undefined): string[] {
  const leading = text?.match(LEADING_MENTIONS)?.[0];
  return leading ? mentionedUsernames(leading) : [];
}

/** Where a mention's to-dos point: everything of NewTodo but the user and the action. */
export type MentionTodo = Omit<NewTodo, 'userId' | 'action'>;

/**
 * Makes the to-dos for the mentions in `text`: active users it names, except `skipUserIds` (those already
 * mentioned before an edit) and those `mayRead` refuses. Returns the IDs of the users who got one.
 */
export async function insertMentionTodos(
  db: Db,
  text: string | null | undefined,
  todo: MentionTodo,
  mayRead: (userId: number) => Promise<boolean>,
  skipUserIds: readonly number[] = [],
): Promise<number[]> {
  const names = mentionedUsernames(text);
  if (names.length === 0) return [];
  const direct = directlyAddressedUsernames(text);
  const users = await activeUsersNamed(db, names);
  const made: number[] = [];
  for (const user of users) {
    if (skipUserIds.includes(user.id) || !(await mayRead(user.id))) continue;
    const action = direct.includes(user.username.toLowerCase()) ? 'directly_addressed' : 'mentioned';
    await insertTodo(db, { ...todo, userId: user.id, action });
    made.push(user.id);
  }
  return made;
}

/** The IDs of the active users a text mentions (to skip them when the edited text mentions them again). */
export async function mentionedUserIds(db: Db, text: string | null | undefined): Promise<number[]> {
  const names = mentionedUsernames(text);
  if (names.length === 0) return [];
  return userIdsNamed(db, names);
}
