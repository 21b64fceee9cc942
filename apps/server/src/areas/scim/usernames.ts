// A username made from a SCIM `userName`, as GitLab makes one (Namespace.clean_path): identity providers send
// e-mail-shaped user names (`grace@example.com`), which are not valid usernames.

/** GitLab's endings a path may not have (they would read as a repository or a feed). */
const FORBIDDEN_ENDING = /(\.git|\.atom)+$/i;

/**
 * The part before `@`, characters other than letters, digits, `_`, `-` and `.` replaced by `-`,
 * leading and trailing punctuation dropped, a `.git`/`.atom` ending removed. Empty when
 * nothing usable is left.
 */
export function usernameFrom(userName: string): string {
  const local = userName.split('@')[0] ?? '';
  return local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(FORBIDDEN_ENDING, '')
    .replace(/^[-_.]+|[-_.]+$/g, '')
    .slice(0, 255);
}
