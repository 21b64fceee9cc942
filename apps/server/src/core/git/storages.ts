// Where repositories live: one directory per configured storage under the data directory.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export class RepositoryStorages {
  constructor(
    private readonly dataDir: string,
    readonly names: readonly string[],
  ) {}

  /**
   * The paths given out, by storage and project: every request that reads a repository asks for its path, and
   * the same string each time is cheaper than a new one, both to make and as the key of the read caches
   * (V8 keeps a string's hash with the string). At most one entry per project and storage.
   */
  private readonly paths = new Map<string, Map<number, string>>();

  /** Bare repositories are named after the project ID, so renames and moves of namespaces never touch them. */
  pathFor(storage: string, projectId: number): string {
    let ofStorage = this.paths.get(storage);
    if (!ofStorage) {
      if (!this.names.includes(storage)) throw new Error(`unknown repository storage: ${storage}`);
      ofStorage = new Map();
      this.paths.set(storage, ofStorage);
    }
    let path = ofStorage.get(projectId);
    if (path === undefined) {
      path = join(this.dataDir, 'repositories', storage, `${projectId}.git`);
      ofStorage.set(projectId, path);
    }
    return path;
  }

  async ensureDirectories(): Promise<void> {
    for (const name of this.names) await mkdir(join(this.dataDir, 'repositories', name), { recursive: true });
  }
}
