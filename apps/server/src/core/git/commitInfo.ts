/**
 * A commit as the API shows it in branches and push payloads, and how to read one from a commit object's
 * raw content: the fields `git log --format=%H%P%an%ae%aI%cn%ce%cI%B` prints, so a commit this server has
 * just written is described without asking git again.
 */

export interface BranchCommitInfo {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  /** Strict ISO 8601 keeping the commit's offset, e.g. `2026-01-15T10:00:00.000+00:00`. */
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  parent_ids: string[];
}

/** A branch and its tip commit. */
export interface BranchInfo {
  name: string;
  commit: BranchCommitInfo;
}

/** `<name> <<email>> <seconds> <+hhmm>` (an ident line of a commit header, after its keyword). */
const IDENT = /^(.*?) ?<([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/;

/** The date of an ident as git's `%aI` prints it, with milliseconds: `2026-01-15T10:00:00.000+01:00`. */
function identDate(seconds: number, sign: string, hours: string, minutes: string): string {
  const offset = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
  // git prints a zero offset as `+00:00` (or `Z`, which the API shows as `+00:00` too).
  const shown = offset === 0 ? '+' : sign;
  return `${local}.000${shown}${hours}:${minutes}`;
}

/**
 * The commit `id` whose raw object content is `content` (UTF-8, as every commit this server writes), or
 * null when it is not in the shape git's own commits have (then ask git).
 */
export function commitInfoFromObject(id: string, content: Buffer): BranchCommitInfo | null {
  const text = content.toString('utf8');
  const split = text.indexOf('\n\n');
  if (split < 0) return null;
  const message = text.slice(split + 2);
  const parents: string[] = [];
  let author: RegExpExecArray | null = null;
  let committer: RegExpExecArray | null = null;
  for (const line of text.slice(0, split).split('\n')) {
    if (line.startsWith('parent ')) parents.push(line.slice('parent '.length));
    else if (line.startsWith('author ')) author = IDENT.exec(line.slice('author '.length));
    else if (line.startsWith('committer ')) committer = IDENT.exec(line.slice('committer '.length));
    // An encoding header means a message git would convert for %B: left to git.
    else if (!line.startsWith('tree ')) return null;
  }
  if (!author || !committer) return null;
  const [, an = '', ae = '', as = '0', asign = '+', ah = '00', am = '00'] = author;
  const [, cn = '', ce = '', cs = '0', csign = '+', ch = '00', cm = '00'] = committer;
  return {
    id,
    short_id: id.slice(0, 8),
    title: message.split('\n', 1)[0] ?? '',
    message,
    author_name: an,
    author_email: ae,
    authored_date: identDate(Number(as), asign, ah, am),
    committer_name: cn,
    committer_email: ce,
    committed_date: identDate(Number(cs), csign, ch, cm),
    parent_ids: parents,
  };
}
