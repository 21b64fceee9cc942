// A curl command that repeats an HTTP request, for the reproducer of every finding (run, fuzz, proxy).
// Tokens are masked unless asked for: reports get shared, and a token in them would be a leak.

/** The request as the tools see it; `headers` in any of the forms fetch accepts. */
export interface CurlRequest {
  method: string;
  url: string;
  headers: Headers | Record<string, string> | Iterable<readonly [string, string]>;
  /** The body as text (multipart and other binary bodies are left out by the callers). */
  body?: string | undefined;
}

export interface CurlOptions {
  /** Print tokens as sent instead of `<token>`. */
  revealTokens?: boolean;
}

/** Headers that carry a credential. */
const SECRET_HEADERS = new Set(['private-token', 'authorization', 'job-token', 'cookie']);
/** Query parameters that carry a credential. */
const SECRET_QUERY = /([?&](?:private_token|access_token|job_token)=)[^&#]*/g;
/** Headers curl computes itself; repeating them only risks a wrong length. */
const COMPUTED_HEADERS = new Set(['content-length', 'host', 'connection']);

/** One shell word: single-quoted, with each quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function headerPairs(headers: CurlRequest['headers']): [string, string][] {
  if (headers instanceof Headers) {
    const pairs: [string, string][] = [];
    headers.forEach((value, name) => {
      pairs.push([name, value]);
    });
    return pairs;
  }
  if (Symbol.iterator in headers)
    return [...(headers as Iterable<readonly [string, string]>)].map(([n, v]) => [n, v]);
  return Object.entries(headers);
}

function maskedHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (!SECRET_HEADERS.has(lower)) return value;
  // Keep the scheme of an Authorization header (Bearer/Basic), so the reader knows what to put back.
  const scheme = lower === 'authorization' ? /^(\S+)\s/.exec(value)?.[1] : undefined;
  return scheme ? `${scheme} <token>` : '<token>';
}

/**
 * `curl -sS -i -g -X METHOD -H ... --data-raw BODY URL`: `-i` shows the status and headers the finding is
 * about, `-g` keeps the brackets of parameters like `variables[0][key]` literal. HEAD uses `--head`, with
 * which curl does not wait for a body.
 */
export function curlCommand(request: CurlRequest, options: CurlOptions = {}): string {
  const method = request.method.toUpperCase();
  const parts = ['curl -sS -i -g'];
  parts.push(method === 'HEAD' ? '--head' : `-X ${method}`);
  for (const [name, value] of headerPairs(request.headers)) {
    if (COMPUTED_HEADERS.has(name.toLowerCase())) continue;
    const shown = options.revealTokens ? value : maskedHeader(name, value);
    parts.push(`-H ${shellQuote(`${name}: ${shown}`)}`);
  }
  if (request.body !== undefined && request.body !== '') parts.push(`--data-raw ${shellQuote(request.body)}`);
  const url = options.revealTokens ? request.url : request.url.replace(SECRET_QUERY, '$1<token>');
  parts.push(shellQuote(url));
  return parts.join(' ');
}
