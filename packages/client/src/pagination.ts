// Following `Link: <…>; rel="next"` across the pages of a list, for offset and keyset pagination alike.

/** The URL of the `next` link of a Link header, if any. */
export function nextLink(linkHeader: string | null): string | undefined {
  if (!linkHeader) return undefined;
  for (const part of linkHeader.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return undefined;
}
