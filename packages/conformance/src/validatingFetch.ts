// A fetch that validates every response against the spec before the test sees it, and records which
// operations were exercised with which statuses (the per-operation report is built from that record).
import { ResponseValidator } from './responseValidator.js';
import { loadSpecIndex } from './specIndex.js';

export interface Exchange {
  operationId: string | undefined;
  method: string;
  url: string;
  status: number;
  problems: string[];
  /** A curl command that repeats the request (the token masked). */
  curl: string;
}

export class ContractViolation extends Error {
  constructor(readonly exchange: Exchange) {
    super(
      `${exchange.method} ${exchange.url} → ${exchange.status} breaks the contract` +
        ` (${exchange.operationId ?? 'no operation'}):\n  - ${exchange.problems.join('\n  - ')}\n  reproduce: ${exchange.curl}`,
    );
    this.name = 'ContractViolation';
  }
}

const index = loadSpecIndex();
const validator = new ResponseValidator(index);
/** Every exchange of this process, in order. */
export const exchanges: Exchange[] = [];

function curlOf(request: Request, body: string | undefined): string {
  const parts = [`curl -i -X ${request.method}`];
  request.headers.forEach((value, name) => {
    parts.push(`-H '${name}: ${name.toLowerCase() === 'private-token' ? '<token>' : value}'`);
  });
  if (body) parts.push(`--data-raw '${body.replace(/'/g, `'\\''`)}'`);
  parts.push(`'${request.url.replace(/private_token=[^&]+/, 'private_token=<token>')}'`);
  return parts.join(' ');
}

export function validatingFetch(baseFetch: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestBody =
      request.body && !request.headers.get('content-type')?.startsWith('multipart/')
        ? await request.clone().text()
        : undefined;
    const response = await baseFetch(request);
    const text = request.method === 'HEAD' ? '' : await response.clone().text();
    const { operation, problems } = validator.check(
      request.method,
      request.url,
      response.status,
      response.headers,
      text,
    );
    const exchange: Exchange = {
      operationId: operation?.operationId,
      method: request.method,
      url: request.url,
      status: response.status,
      problems,
      curl: curlOf(request, requestBody),
    };
    exchanges.push(exchange);
    if (problems.length > 0) throw new ContractViolation(exchange);
    return response;
  };
}
