// Prepared data directories: the migrated and seeded database and the fixture repositories, made once per
// fixtures, storages and server code, then copied into each new data directory that would load those
// fixtures. A copy is a few file copies; loading the fixtures again is hundreds of inserts and git processes.
// The copy holds the same data as a load (a test compares them); its timestamps are the template's.
import { createHash, randomBytes } from 'node:crypto';
import { cp, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE_DIR } from '../../serverFiles.js';

/** Where templates are kept unless told otherwise: the system's temporary directory. */
export const DEFAULT_TEMPLATES_DIR = join(tmpdir(), 'collab-data-templates');

let codeIdentity: Promise<string> | undefined;

/**
 * A hash of every module of the server's code (src/ or dist/, whichever runs), computed once per process: a
 * template made by other code is not used.
 */
function serverCodeIdentity(): Promise<string> {
  codeIdentity ??= (async () => {
    const hash = createHash('sha256');
    const files = (await readdir(CODE_DIR, { recursive: true }))
      .filter((file) => /\.(ts|js|json|sql)$/.test(file))
      .sort();
    for (const file of files) hash.update(file).update(await readFile(join(CODE_DIR, file)));
    return hash.digest('hex');
  })();
  return codeIdentity;
}

/** The name of the template for `inputs` (what decides a seeded data directory's contents). */
export async function templateKey(inputs: unknown): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(inputs))
    .update(process.version)
    .update(await serverCodeIdentity())
    .digest('hex')
    .slice(0, 32);
}

/**
 * How many templates `templatesDir` keeps: each change of the server's code, the fixtures or the Node.js
 * release makes a new one, and every checkout of the repository on a machine shares the directory.
 */
export const KEPT_TEMPLATES = 24;

/**
 * Fills the empty `dataDir` from the template `key` under `templatesDir`, making the template first with
 * `make` (which seeds the directory it is given and closes everything it opened) when there is none. Two
 * processes making the same template at once each make their own and the first to finish keeps its. A new
 * template removes the least recently used beyond the `keep` newest.
 */
export async function copyTemplate(
  dataDir: string,
  templatesDir: string,
  key: string,
  make: (directory: string) => Promise<void>,
  keep = KEPT_TEMPLATES,
): Promise<void> {
  const template = join(templatesDir, key);
  // Twice at most: another process may prune the template between the check and the copy.
  for (let attempt = 1; ; attempt++) {
    if (await exists(template)) {
      // Marks it used, so pruning removes the templates unused longest.
      const now = new Date();
      await utimes(template, now, now).catch(() => {});
    } else {
      const building = join(templatesDir, `.${key}-${randomBytes(4).toString('hex')}`);
      try {
        await make(building);
        await rename(building, template).catch(async (error: NodeJS.ErrnoException) => {
          if (!(await exists(template))) throw error;
        });
      } finally {
        await rm(building, { recursive: true, force: true });
      }
      await pruneTemplates(templatesDir, keep);
    }
    try {
      await cp(template, dataDir, { recursive: true });
      return;
    } catch (error) {
      if (attempt === 2 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

/** Removes the templates of `templatesDir` beyond the `keep` most recently used. */
export async function pruneTemplates(templatesDir: string, keep: number): Promise<void> {
  const names = (await readdir(templatesDir)).filter((name) => !name.startsWith('.'));
  if (names.length <= keep) return;
  const used = await Promise.all(
    names.map(async (name) => ({
      name,
      at: await stat(join(templatesDir, name)).then(
        (info) => info.mtimeMs,
        () => 0,
      ),
    })),
  );
  used.sort((a, b) => b.at - a.at);
  for (const { name } of used.slice(keep))
    await rm(join(templatesDir, name), { recursive: true, force: true });
}

/** Whether `directory` has no entries (a missing one counts as empty). */
export async function isEmptyDirectory(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await readdir(path);
    return true;
  } catch {
    return false;
  }
}
