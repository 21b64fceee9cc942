// Every item of an async iterable, in order (Node 20 has no Array.fromAsync): the tests read whole lists
// through the client's page iterator with it.
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
