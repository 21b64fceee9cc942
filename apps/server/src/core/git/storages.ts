// Where repositories live: one directory per configured storage under the data directory.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export class RepositoryStorages {
  constructor(
    private readonly dataDir: string,
    readonly names: readonly string[],
  ) {}

  /** Bare repositories are named after the project ID, so renames and moves of namespaces never touch them. */
  pathFor(storage: string, projectId: number): string {
    if (!this.names.includes(storage)) throw new Error(`unknown repository storage: ${storage}`);
    return join(this.dataDir, 'repositories', storage, `${projectId}.git`);
  }

  async ensureDirectories(): Promise<void> {
    for (const name of this.names) await mkdir(join(this.dataDir, 'repositories', name), { recursive: true });
  }
}
