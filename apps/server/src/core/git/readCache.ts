// Results of read-only git commands, per repository, dropped whenever that repository changes. All writes to
// repositories go through this server (there is no git transport), so invalidating on our own writes keeps
// the cache exact, and reads of files and branches need no git process at all once warm. A change made by
// another process on the same data directory (another server worker, or a storage move run as a command) is
// told by the repository's generation, a counter in the database that the writer bumps after the change
// (noteGeneration); a storage move bumps it when it switches the project to the copy. Nothing here touches
// the file system: a stat per read was 3% of a cached read's time.

/** Values larger than this are not kept (file contents), so memory stays bounded by the entry count. */
const MAX_CACHED_BYTES = 256 * 1024;

export class RepositoryReadCache {
  private readonly repositories = new Map<string, Map<string, Promise<unknown>>>();
  private readonly generations = new Map<string, number>();
  private entries = 0;

  constructor(private readonly maxEntries: number) {}

  /** The cached result of `load` for this repository and key; concurrent callers share one load. */
  get<T>(repository: string, key: string, load: () => Promise<T>, sizeOf?: (value: T) => number): Promise<T> {
    let cached = this.repositories.get(repository);
    const hit = cached?.get(key);
    if (hit) return hit as Promise<T>;
    if (this.entries >= this.maxEntries) this.clear();
    if (!cached) {
      cached = new Map();
      this.repositories.set(repository, cached);
    }
    const entries = cached;
    const loading = load();
    entries.set(key, loading);
    this.entries++;
    // A failed or oversized result is not kept; a result that lands after an invalidation is already gone.
    loading.then(
      (value) => {
        if (sizeOf && sizeOf(value) > MAX_CACHED_BYTES) this.forget(entries, key, loading);
      },
      () => this.forget(entries, key, loading),
    );
    return loading;
  }

  /**
   * A generation of the repository read from the database: a newer one than seen before means that the
   * repository changed since (maybe in another process), so its entries go. An older one (a request that
   * read its project before the change) keeps them: they are at least as new as it is.
   */
  noteGeneration(repository: string, generation: number): void {
    const known = this.generations.get(repository);
    if (known !== undefined && generation <= known) return;
    // Entries read before any generation was seen cannot be dated: they go as well.
    this.invalidate(repository);
    if (this.generations.size >= this.maxEntries) this.clear();
    this.generations.set(repository, generation);
  }

  /** Drops everything known about a repository: call after every change to it. */
  invalidate(repository: string): void {
    const cached = this.repositories.get(repository);
    if (!cached) return;
    this.entries -= cached.size;
    this.repositories.delete(repository);
  }

  clear(): void {
    this.repositories.clear();
    this.generations.clear();
    this.entries = 0;
  }

  private forget(entries: Map<string, Promise<unknown>>, key: string, loading: Promise<unknown>): void {
    if (entries.get(key) !== loading) return;
    entries.delete(key);
    this.entries--;
  }
}

export const repositoryReadCache = new RepositoryReadCache(20_000);
