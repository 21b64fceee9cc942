// The server's copy of the bundled spec (dist/openapi.server.json): the same document without what only people
// read (descriptions, summaries, examples, external docs, x-* extensions), on one line. The server parses its
// document at every start and its validator instances copy and walk their parts of it: a third of the text
// makes both cheaper. Everything the server reads stays: paths, operations and their tags, parameters, request
// bodies, responses, schemas, defaults. The full document stays what /openapi.json and the docs serve.

/** Keywords that only annotate: no validator and no request reader of the server reads them. */
const ANNOTATIONS = new Set(['description', 'summary', 'example', 'examples', 'externalDocs']);

/** Keys whose object value maps names (of properties, paths, media types, components...) to nodes. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
  'paths',
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'securitySchemes',
  'content',
  'encoding',
  'links',
  'callbacks',
  'variables',
  'mapping',
]);

/** Keys whose value is data, not a node of the document: kept as they are. */
const LITERALS = new Set(['enum', 'const', 'default', 'required']);

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A node of the document without its annotations (a name of a name map is kept, whatever it is). */
export function withoutAnnotations(node) {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (!isObject(node)) return node;
  const kept = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (LITERALS.has(key)) kept[key] = value;
    else if (NAME_MAPS.has(key) && isObject(value))
      kept[key] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, withoutAnnotations(item)]),
      );
    else kept[key] = withoutAnnotations(value);
  }
  return kept;
}
