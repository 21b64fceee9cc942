/**
 * The absolute path of the `git` binary, found once on PATH. Spawning by bare name makes Node.js search
 * every PATH entry again for each process, in the server's own thread; a path spawns straight away.
 */

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

let found: string | undefined;

/** The first executable file named `git` on PATH (absolute entries only), else the bare name. */
export function gitPath(): string {
  if (found === undefined) found = searchPath(process.env.PATH ?? '') ?? 'git';
  return found;
}

function searchPath(path: string): string | undefined {
  for (const directory of path.split(delimiter)) {
    // A relative entry would be resolved against the working directory, which can change: skip it.
    if (!isAbsolute(directory)) continue;
    const candidate = join(directory, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not there, or not executable: the next entry.
    }
  }
  return undefined;
}
