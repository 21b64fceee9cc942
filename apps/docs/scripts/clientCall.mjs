// The request a @collab/client sample makes, read from its source: the call `api.<METHOD>('<path>', init)`
// of the operation, with the literal values of its path and query parameters and of its body. The curl
// sample then sends the same request as the client sample shows. Only literals are read (strings,
// numbers, booleans, null, arrays and objects of them): a value computed by the sample is left out, and the
// curl sample takes that part from the spec's examples instead.
import ts from 'typescript';

const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);
/** A value the sample computes: not a literal. */
export const COMPUTED = Symbol('computed');

/** A value the sample reads from an environment variable (`process.env.NAME`, with or without `?? …`). */
export class EnvValue {
  constructor(name) {
    this.name = name;
  }
}

/** A file the sample sends (`const logo = new File([…], 'logo.png')`), by its name. */
export class FileValue {
  constructor(name) {
    this.name = name;
  }
}

/**
 * `{ path, query, body, multipart }` of the sample's call of `method` `path` (each undefined when the sample
 * gives none or not as literals), or undefined when the sample has no such call.
 */
export function clientCall(source, method, path) {
  const file = ts.createSourceFile('sample.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const files = fileNames(file);
  const literal = (node) => literalValue(node, files);
  const readInit = (init) => {
    if (!init) return {};
    // multipart<'/path'>({ field: value, … }): a form body.
    if (
      ts.isCallExpression(init) &&
      ts.isIdentifier(init.expression) &&
      init.expression.text === 'multipart'
    ) {
      const fields = init.arguments[0] ? literal(init.arguments[0]) : undefined;
      return { multipart: usable(fields) };
    }
    const value = literal(init);
    if (value === COMPUTED || typeof value !== 'object' || value === null) return {};
    const params = value.params === COMPUTED ? {} : (value.params ?? {});
    return { path: usable(params.path), query: usable(params.query), body: usable(value.body) };
  };
  let found;
  const visit = (node) => {
    if (found) return;
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      METHODS.has(node.expression.name.text) &&
      node.expression.name.text === method.toUpperCase() &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      node.arguments[0].text === path
    ) {
      found = readInit(node.arguments[1]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The variables of the source that hold a `new File([…], 'name')`, by variable name. */
function fileNames(file) {
  const names = new Map();
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isNewExpression(node.initializer) &&
      ts.isIdentifier(node.initializer.expression) &&
      node.initializer.expression.text === 'File' &&
      node.initializer.arguments?.[1] &&
      ts.isStringLiteralLike(node.initializer.arguments[1])
    ) {
      names.set(node.name.text, node.initializer.arguments[1].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** A wholly literal value, else undefined (the part is taken from the spec). */
function usable(value) {
  return value === undefined || containsComputed(value) ? undefined : value;
}

function containsComputed(value) {
  if (value === COMPUTED) return true;
  if (Array.isArray(value)) return value.some(containsComputed);
  if (value && typeof value === 'object') return Object.values(value).some(containsComputed);
  return false;
}

/**
 * The literal value of an expression, with COMPUTED for each part that is not a literal, an EnvValue for an
 * environment variable and a FileValue for a variable holding a named File (`files`).
 */
function literalValue(node, files) {
  const literal = (child) => literalValue(child, files);
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return literal(node.expression);
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
    const left = literal(node.left);
    return left instanceof EnvValue ? left : COMPUTED;
  }
  if (
    ts.isPropertyAccessExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.getText() === 'process.env'
  ) {
    return new EnvValue(node.name.text);
  }
  if (ts.isIdentifier(node)) return files.has(node.text) ? new FileValue(files.get(node.text)) : COMPUTED;
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const operand = literal(node.operand);
    return typeof operand === 'number' ? -operand : COMPUTED;
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literal);
  if (ts.isObjectLiteralExpression(node)) {
    const object = {};
    for (const property of node.properties) {
      if (ts.isShorthandPropertyAssignment(property)) {
        object[property.name.text] = literal(property.name);
        continue;
      }
      if (!ts.isPropertyAssignment(property)) return COMPUTED;
      const name = property.name;
      const key =
        ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)
          ? name.text
          : undefined;
      if (key === undefined) return COMPUTED;
      object[key] = literal(property.initializer);
    }
    return object;
  }
  return COMPUTED;
}
