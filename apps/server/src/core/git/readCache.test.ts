import { describe, expect, it } from 'vitest';
import { RepositoryReadCache } from './readCache.js';

describe('RepositoryReadCache', () => {
  it('loads once per key and shares concurrent loads', async () => {
    const cache = new RepositoryReadCache(10);
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get('/r', 'k', load), cache.get('/r', 'k', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(await cache.get('/r', 'other', load)).toBe(2);
  });

  it('forgets a repository on invalidate, and only that repository', async () => {
    const cache = new RepositoryReadCache(10);
    let loads = 0;
    const load = async () => ++loads;
    await cache.get('/a', 'k', load);
    await cache.get('/b', 'k', load);
    cache.invalidate('/a');
    expect(await cache.get('/a', 'k', load)).toBe(3);
    expect(await cache.get('/b', 'k', load)).toBe(2);
  });

  it('drops a repository when a newer generation is noted, not for the same or an older one', async () => {
    const cache = new RepositoryReadCache(10);
    let loads = 0;
    const load = async () => ++loads;
    cache.noteGeneration('/r', 3);
    expect(await cache.get('/r', 'k', load)).toBe(1);
    cache.noteGeneration('/r', 3);
    cache.noteGeneration('/r', 2);
    expect(await cache.get('/r', 'k', load)).toBe(1);
    // Another process changed the repository: the project row read afterwards carries generation 4.
    cache.noteGeneration('/r', 4);
    expect(await cache.get('/r', 'k', load)).toBe(2);
  });

  it('drops entries read before any generation was noted', async () => {
    const cache = new RepositoryReadCache(10);
    let loads = 0;
    const load = async () => ++loads;
    await cache.get('/r', 'k', load);
    cache.noteGeneration('/r', 0);
    expect(await cache.get('/r', 'k', load)).toBe(2);
  });

  it('does not keep failures or oversized values, and stays within its entry bound', async () => {
    const cache = new RepositoryReadCache(2);
    await expect(cache.get('/r', 'fail', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await cache.get('/r', 'fail', async () => 'ok')).toBe('ok');
    const big = Buffer.alloc(300 * 1024);
    let loads = 0;
    const loadBig = async () => {
      loads++;
      return big;
    };
    await cache.get('/r', 'big', loadBig, (b) => b.length);
    await new Promise((resolve) => setImmediate(resolve));
    await cache.get('/r', 'big', loadBig, (b) => b.length);
    expect(loads).toBe(2);
    const bounded = new RepositoryReadCache(2);
    let small = 0;
    for (const key of ['1', '2', '3', '1', '1']) await bounded.get('/r', key, async () => ++small);
    // '3' overflowed the bound and emptied the cache, so '1' loaded again; the last '1' was a hit.
    expect(small).toBe(4);
  });
});
