// The curl sample of each operation, made from the spec alone: the method, the URL from the operation's
// server with its path parameters' examples (and its required query parameters'), the token header its
// security names, and a body from the request body's example or, without one, from the examples of its
// schema's required properties. The build validates each sample's request (its parameters and its body)
// against the operation with Ajv (requestCheck), so a sample that the server would refuse fails the build.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { clientCall, EnvValue, FileValue } from './clientCall.mjs';
import { operationsOf } from './samples.mjs';

const COMPONENTS_ID = 'https://collab.invalid/components.json';
/** OpenAPI's own schema keywords beyond JSON Schema 2020-12: annotations for Ajv. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];
/** The environment variable each security scheme's sample reads its secret from. */
const TOKEN_HEADERS = {
  privateTokenHeader: 'PRIVATE-TOKEN: $COLLAB_TOKEN',
  privateTokenQuery: 'PRIVATE-TOKEN: $COLLAB_TOKEN',
  personalTokenBearer: 'Authorization: Bearer $COLLAB_TOKEN',
  scimBearer: 'Authorization: Bearer $SCIM_TOKEN',
};
/** Past this width a sample's line is broken: the width of the page's sample panel. */
const WIDTH = 72;

/** The object a local `$ref` (`#/components/...`) points at, followed through chains of references. */
export function resolve(spec, value) {
  let current = value;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot resolve ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current;
}

/**
 * The request a sample sends: method, URL, headers and body, before it is written as a command. Its path and
 * query parameters and its body are those of the operation's client sample (`clientSource`) where that
 * gives them as literals, else the spec's examples.
 */
export function sampleRequest(spec, { method, path, operation }, clientSource) {
  const item = spec.paths[path];
  const call = (clientSource && clientCall(clientSource, method, path)) || {};
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) =>
    resolve(spec, p),
  );
  const problems = [];
  const pathValues = {};
  const query = { ...(call.query ?? {}) };
  for (const parameter of parameters) {
    if (parameter.in === 'path') {
      const value = call.path?.[parameter.name] ?? decodedExample(exampleOfParameter(spec, parameter));
      if (value === undefined) problems.push(`path parameter ${parameter.name} has no example`);
      else pathValues[parameter.name] = value;
    } else if (parameter.in === 'query' && parameter.required && !(parameter.name in query)) {
      const value = exampleOfParameter(spec, parameter);
      if (value === undefined) problems.push(`query parameter ${parameter.name} has no example`);
      else query[parameter.name] = value;
    }
  }
  const server = operation.servers?.[0] ?? item.servers?.[0] ?? spec.servers[0];
  const root = server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables?.[name]?.default ?? '');
  const urlPath = path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(pathValues[name])));
  const search = queryString(query);
  const url = `${root}${urlPath}${search ? `?${search}` : ''}`;

  const security = operation.security ?? spec.security ?? [];
  const scheme = security.flatMap((requirement) => Object.keys(requirement))[0];
  const headers = [];
  if (scheme && TOKEN_HEADERS[scheme]) headers.push(TOKEN_HEADERS[scheme]);
  else if (scheme) problems.push(`no sample header for the security scheme ${scheme}`);

  let body;
  let bodyType;
  if (operation.requestBody) {
    const requestBody = resolve(spec, operation.requestBody);
    const types = Object.keys(requestBody.content);
    if (call.multipart && types.includes('multipart/form-data')) {
      bodyType = 'multipart/form-data';
      body = call.multipart;
    } else {
      bodyType = types.includes('application/json') ? 'application/json' : types[0];
      const media = requestBody.content[bodyType];
      // The client sample's body first, so that both samples send the same request.
      body =
        (bodyType === 'application/json' ? call.body : undefined) ??
        mediaExample(spec, media) ??
        exampleOfSchema(spec, media.schema, 'body', problems, true);
    }
  }
  return { method: method.toUpperCase(), url, pathValues, query, headers, body, bodyType, problems };
}

/** The request written as a curl command, one option a line, each line within the sample panel. */
export function curlCommand(request) {
  const lines = ['curl'];
  if (request.method === 'HEAD') lines.push('--head');
  else if (request.method !== 'GET') lines.push(`--request ${request.method}`);
  for (const header of request.headers) lines.push(`--header "${header}"`);
  if (request.body !== undefined && request.bodyType === 'application/json') {
    lines.push('--header "Content-Type: application/json"');
    lines.push(...jsonData(request.body));
  } else if (request.body !== undefined) {
    for (const [name, value] of Object.entries(request.body)) {
      if (value instanceof EnvValue) lines.push(`--form "${name}=$${value.name}"`);
      else
        lines.push(
          `--form ${shellQuote(`${name}=${value instanceof FileValue ? `@${value.name}` : value}`)}`,
        );
    }
  }
  lines.push(shellQuote(request.url));
  return lines.map((line, index) => (index === 0 ? line : `  ${line}`)).join(' \\\n');
}

/**
 * Every operation's curl sample by operationId, and what is wrong with any: a parameter without an example,
 * a request that does not validate against the operation.
 */
export function curlSamplesFor(spec, clientSamples = new Map()) {
  const check = requestCheck(spec);
  const samples = new Map();
  const errors = [];
  for (const entry of operationsOf(spec)) {
    const request = sampleRequest(spec, entry, clientSamples.get(entry.operationId));
    const problems = [...request.problems, ...check(entry, request)];
    if (problems.length > 0) errors.push(...problems.map((problem) => `${entry.operationId}: ${problem}`));
    else samples.set(entry.operationId, curlCommand(request));
  }
  return { samples, errors };
}

/** A function that lists how a sample's request breaks its operation's parameter and body schemas. */
export function requestCheck(spec) {
  // Values are checked here, not the schemas (the spec's lint and spec.test do that): "at least one of" sets
  // (`allOf: [{anyOf: [{required: [a]}, …]}]`) are not strict mode's idea of a schema, but valid ones.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  const extensionKeywords = new Set();
  const defs = rewriteRefs(spec.components?.schemas ?? {}, extensionKeywords);
  for (const keyword of [...OPENAPI_KEYWORDS, ...extensionKeywords]) ajv.addKeyword({ keyword });
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: defs });
  const validate = (schema, value, where) => {
    const compiled = ajv.compile(rewriteRefs(schema, new Set()));
    return compiled(value) ? [] : [`${where} ${ajv.errorsText(compiled.errors, { dataVar: where })}`];
  };
  return ({ path, operation }, request) => {
    const item = spec.paths[path];
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) =>
      resolve(spec, p),
    );
    const problems = [];
    for (const parameter of parameters) {
      const given =
        parameter.in === 'path' ? request.pathValues : parameter.in === 'query' ? request.query : {};
      if (!(parameter.name in given)) continue;
      const value = given[parameter.name];
      problems.push(
        ...validate(parameter.schema ?? {}, value, `${parameter.in} parameter ${parameter.name}`),
      );
    }
    if (operation.requestBody) {
      const media = resolve(spec, operation.requestBody).content[request.bodyType];
      const body = JSON.parse(JSON.stringify(request.body, checkedValue));
      problems.push(...validate(media.schema ?? {}, body, 'body'));
    }
    return problems;
  };
}

// What the schema sees of a file and of an environment variable's value.
function checkedValue(_, value) {
  if (value instanceof FileValue) return 'file contents';
  return value instanceof EnvValue ? 'secret' : value;
}

function exampleOfParameter(spec, parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return resolve(spec, named).value;
  return firstExample(resolve(spec, parameter.schema ?? {}));
}

function mediaExample(spec, media) {
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {})[0];
  return named ? resolve(spec, named).value : undefined;
}

function firstExample(schema) {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  return schema.enum?.find((value) => value !== null);
}

/**
 * A value for a schema from its examples; an object of its required properties (those of its `allOf`
 * parts and the first "at least one of" set included), or at the body's top level, when nothing is required,
 * its first property with an example, so the sample shows what a body looks like.
 */
function exampleOfSchema(spec, schemaOrRef, where, problems, topLevel = false) {
  const schema = resolve(spec, schemaOrRef ?? {});
  const given = firstExample(schema);
  if (given !== undefined) return given;
  if (schema.format === 'binary' || schema.contentMediaType === 'application/octet-stream') {
    return new FileValue(where.split('.').at(-1) ?? 'file');
  }
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice && !schema.properties) {
    const branch = choice.map((option) => resolve(spec, option)).find((option) => option.type !== 'null');
    return exampleOfSchema(spec, branch, where, problems);
  }
  const types = [schema.type ?? (schema.properties ? 'object' : undefined)]
    .flat()
    .filter((t) => t !== 'null');
  const type = types[0];
  if (type === 'object' || schema.allOf) {
    const parts = [schema, ...(schema.allOf ?? []).map((part) => resolve(spec, part))];
    const properties = Object.assign({}, ...parts.map((part) => part.properties ?? {}));
    const required = new Set(parts.flatMap((part) => part.required ?? []));
    for (const part of parts) {
      const firstSet = (part.anyOf ?? []).map((option) => resolve(spec, option).required ?? [])[0] ?? [];
      for (const name of firstSet) required.add(name);
    }
    if (required.size === 0 && topLevel) {
      const shown = Object.entries(properties).find(([, p]) => firstExample(resolve(spec, p)) !== undefined);
      if (shown) required.add(shown[0]);
    }
    const value = {};
    for (const name of required) {
      value[name] = exampleOfSchema(spec, properties[name], `${where}.${name}`, problems);
    }
    return value;
  }
  if (type === 'array') return [exampleOfSchema(spec, schema.items, `${where}[0]`, problems)];
  problems.push(`${where} has no example`);
  return undefined;
}

// Examples of "ID or URL-encoded path" parameters are written encoded (`my-group%2Fmy-project`): the value
// itself is the decoded one, encoded again in the URL.
function decodedExample(value) {
  return typeof value === 'string' && /%[0-9A-Fa-f]{2}/.test(value) ? decodeURIComponent(value) : value;
}

/** A query as the client writes it: arrays as `name[]=`, objects as `name[key]=` (Grape's reading). */
function queryString(query) {
  const pairs = [];
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) pairs.push([`${name}[]`, String(item)]);
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) pairs.push([`${name}[${key}]`, String(item)]);
    } else pairs.push([name, String(value)]);
  }
  return new URLSearchParams(pairs).toString();
}

/**
 * `--data` of a JSON body, single-quoted: one line when it fits, else one line per top-level property. An
 * environment variable's value is spliced in by the shell (`'{"token":"'"$TOKEN"'"}'`).
 */
function jsonData(body) {
  const json = (value) =>
    JSON.stringify(value, (_, v) => (v instanceof EnvValue ? `\u0000${v.name}\u0000` : v))
      .replace(/'/g, "'\\''")
      .replace(/\\u0000(\w+)\\u0000/g, `'"$$$1"'`);
  const compact = json(body);
  if (compact.length + 10 <= WIDTH || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return [`--data '${compact}'`];
  }
  const members = Object.entries(body).map(([key, value]) => `${JSON.stringify(key)}: ${json(value)}`);
  return [`--data '{\n    ${members.join(',\n    ')}\n  }'`];
}

function shellQuote(text) {
  return /^[\w@%+=:,./?&-]+$/.test(text) && !text.includes('?') ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

function rewriteRefs(value, extensionKeywords) {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, extensionKeywords));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('x-')) extensionKeywords.add(key);
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
      out[key] = `${COMPONENTS_ID}#/$defs/${child.slice('#/components/schemas/'.length)}`;
    } else {
      out[key] = rewriteRefs(child, extensionKeywords);
    }
  }
  return out;
}
