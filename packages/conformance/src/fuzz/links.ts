// The spec's OpenAPI links (create → read, update, delete) and their runtime expressions, which the fuzzer
// follows in its stateful sequences. The expressions used are `$request.path.NAME`, `$request.body#/NAME`
// and `$response.body#/NAME` (one level of JSON pointer, as every link of the spec has).
import { type JsonObject, type OperationEntry, resolveRef, type SpecIndex } from '../specIndex.js';

export interface Link {
  /** The link's name in the response (`GetProjectBadge`). */
  name: string;
  /** The operation it leads to. */
  operationId: string;
  /** Parameter name → runtime expression. */
  parameters: Record<string, string>;
}

/** The links of an operation's success responses (2xx), in the spec's order. */
export function linksOf(index: SpecIndex, entry: OperationEntry): Link[] {
  const links: Link[] = [];
  for (const [status, response] of Object.entries((entry.operation.responses as JsonObject) ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    const resolved = resolveRef(index, response);
    for (const [name, link] of Object.entries((resolved.links as Record<string, JsonObject>) ?? {})) {
      links.push({
        name,
        operationId: String(link.operationId),
        parameters: Object.fromEntries(
          Object.entries((link.parameters as JsonObject | undefined) ?? {}).map(([k, v]) => [k, String(v)]),
        ),
      });
    }
  }
  return links;
}

/** What an expression is evaluated against: the create's request (path values decoded) and its answer. */
export interface LinkContext {
  requestPath: Record<string, string>;
  requestBody: unknown;
  responseBody: unknown;
}

/** The value of a runtime expression, or undefined when the request or answer does not hold it. */
export function evaluate(expression: string, context: LinkContext): string | undefined {
  const path = /^\$request\.path\.(\w+)$/.exec(expression);
  if (path) return context.requestPath[path[1] as string];
  const body = /^\$(request|response)\.body#\/(\w+)$/.exec(expression);
  if (!body) return undefined;
  const source = body[1] === 'request' ? context.requestBody : context.responseBody;
  if (source === null || typeof source !== 'object') return undefined;
  const value = (source as JsonObject)[body[2] as string];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
