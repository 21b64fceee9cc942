// Checks one HTTP response against the spec: documented status, content type, headers and body (Ajv, 2020-12).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  findOperation,
  type JsonObject,
  type OperationEntry,
  resolveRef,
  type SpecIndex,
} from './specIndex.js';

const COMPONENTS_ID = 'https://collab.invalid/components.json';
/** OpenAPI's own schema keywords beyond JSON Schema 2020-12, known to Ajv as annotations. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/** One way a response breaks the spec, structured for reports (`problems` holds the same as text). */
export interface Violation {
  kind: 'operation' | 'status' | 'header' | 'content-type' | 'body';
  message: string;
  /** The body's JSON pointer (`/0/name`, empty for the root) or the header's name. */
  path?: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`...). */
  keyword?: string;
  /** Where that keyword is in the schema (`#/items/properties/name/type`). */
  schemaPath?: string;
}

export interface ResponseCheck {
  operation: OperationEntry | undefined;
  problems: string[];
  violations: Violation[];
}

/** Points `#/components/schemas/X` at the registered components schema, so Ajv resolves them. */
function rewriteRefs(value: unknown, extensionKeywords: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, extensionKeywords));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    if (key.startsWith('x-')) extensionKeywords.add(key);
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
      out[key] = `${COMPONENTS_ID}#/$defs/${child.slice('#/components/schemas/'.length)}`;
    } else {
      out[key] = rewriteRefs(child, extensionKeywords);
    }
  }
  return out;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(private readonly index: SpecIndex) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    const extensionKeywords = new Set<string>();
    const schemas = (index.document.components as JsonObject | undefined)?.schemas ?? {};
    const defs = rewriteRefs(schemas, extensionKeywords);
    for (const keyword of [...OPENAPI_KEYWORDS, ...extensionKeywords]) this.ajv.addKeyword({ keyword });
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: defs as JsonObject });
  }

  private validatorFor(schema: unknown): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema, new Set()) as JsonObject);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private schemaErrors(
    schema: unknown,
    value: unknown,
  ): { path: string; keyword: string; schemaPath: string; text: string }[] {
    const validate = this.validatorFor(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => ({
      path: e.instancePath,
      keyword: e.keyword,
      schemaPath: e.schemaPath,
      text: `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    }));
  }

  /** Checks a response; `body` is its text (empty for HEAD and no-content answers). */
  check(method: string, url: string, status: number, headers: Headers, body: string): ResponseCheck {
    const { operation, violations } = this.violationsOf(method, url, status, headers, body);
    return { operation, violations, problems: violations.map((violation) => violation.message) };
  }

  private violationsOf(
    method: string,
    url: string,
    status: number,
    headers: Headers,
    body: string,
  ): { operation: OperationEntry | undefined; violations: Violation[] } {
    const operation = findOperation(this.index, method, url);
    if (!operation) {
      const message = `${method} ${new URL(url).pathname} is not an operation of the spec`;
      return { operation, violations: [{ kind: 'operation', message }] };
    }
    const found: Violation[] = [];
    const responses = operation.operation.responses as JsonObject;
    const documented = responses[String(status)] ?? responses.default;
    if (!documented) {
      const message = `status ${status} is not documented for ${operation.operationId}`;
      return { operation, violations: [{ kind: 'status', message }] };
    }
    const response = resolveRef(this.index, documented);

    for (const [name, headerRef] of Object.entries((response.headers as JsonObject | undefined) ?? {})) {
      const header = resolveRef(this.index, headerRef);
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true)
          found.push({
            kind: 'header',
            path: name,
            keyword: 'required',
            message: `header ${name} is required but missing`,
          });
        continue;
      }
      const schema = header.schema as JsonObject | undefined;
      const typed = schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      for (const error of this.schemaErrors(schema ?? {}, typed))
        found.push({
          kind: 'header',
          path: name,
          keyword: error.keyword,
          schemaPath: error.schemaPath,
          message: `header ${name}: ${error.text}`,
        });
    }

    const content = response.content as Record<string, JsonObject> | undefined;
    if (method.toUpperCase() === 'HEAD') return { operation, violations: found };
    if (!content) {
      if (body.length > 0)
        found.push({
          kind: 'body',
          message: `status ${status} of ${operation.operationId} has no documented body, got ${body.length} bytes`,
        });
      return { operation, violations: found };
    }
    const type = mediaType(headers.get('content-type'));
    const media =
      content[type] ?? (type.startsWith('text/') ? content['text/*'] : undefined) ?? content['*/*'];
    if (!media) {
      found.push({
        kind: 'content-type',
        message: `content type "${type}" is not documented for ${operation.operationId} ${status} (${Object.keys(content).join(', ')})`,
      });
      return { operation, violations: found };
    }
    if (isJson(type)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        found.push({ kind: 'body', message: `body of ${operation.operationId} ${status} is not JSON` });
        return { operation, violations: found };
      }
      for (const error of this.schemaErrors(media.schema ?? {}, parsed))
        found.push({
          kind: 'body',
          path: error.path,
          keyword: error.keyword,
          schemaPath: error.schemaPath,
          message: `body: ${error.text}`,
        });
    }
    return { operation, violations: found };
  }
}
