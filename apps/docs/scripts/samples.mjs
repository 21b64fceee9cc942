// The code samples of the reference docs: one region per operation in the example files (examples/*.ts),
// `// #region <operationId>` … `// #endregion`, shown as the operation's `x-codeSamples` entry. A file's
// `setup` region (imports, the client) is put in front of each of its samples, keeping only the imports
// that sample uses, so every sample can be copied as it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SAMPLE_LANG = 'TypeScript';
export const SAMPLE_LABEL = '@collab/client';
export const CURL_LANG = 'Shell';
export const CURL_LABEL = 'curl';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The regions of every example file of `dir`: [{ file, line, name, lines }], in file order.
 * An unclosed or nested region is an error: the build must not show half a sample.
 */
export function readRegions(dir) {
  const regions = [];
  const errors = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    let open;
    lines.forEach((text, index) => {
      const start = /^\s*\/\/ #region (\S+)\s*$/.exec(text);
      if (start) {
        if (open) errors.push(`${file}:${index + 1}: region ${start[1]} starts inside region ${open.name}`);
        open = { file, line: index + 1, name: start[1], lines: [] };
      } else if (/^\s*\/\/ #endregion\b/.test(text)) {
        if (!open) errors.push(`${file}:${index + 1}: #endregion without a #region`);
        else regions.push(open);
        open = undefined;
      } else if (open) {
        open.lines.push(text);
      }
    });
    if (open) errors.push(`${file}:${open.line}: region ${open.name} is never closed`);
  }
  return { regions, errors };
}

/** Every operation of the bundled spec: [{ operationId, method, path, operation }]. */
export function operationsOf(spec) {
  return Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]?.operationId).map((method) => ({
      operationId: item[method].operationId,
      method,
      path,
      operation: item[method],
    })),
  );
}

/**
 * The sample of each operation by operationId, and what is wrong: an operation without a sample, a sample
 * of an operationId the spec does not have, an operation with two samples, an empty sample.
 */
export function samplesFor(spec, regions) {
  const operationIds = new Set(operationsOf(spec).map((entry) => entry.operationId));
  const setups = new Map(regions.filter((region) => region.name === 'setup').map((r) => [r.file, r.lines]));
  const samples = new Map();
  const errors = [];
  for (const region of regions.filter((r) => r.name !== 'setup')) {
    const where = `${region.file}:${region.line}`;
    if (!operationIds.has(region.name)) {
      errors.push(`${where}: sample of ${region.name}, which is no operationId of the spec`);
    } else if (samples.has(region.name)) {
      errors.push(`${where}: a second sample of ${region.name}`);
    } else if (region.lines.every((line) => line.trim() === '')) {
      errors.push(`${where}: the sample of ${region.name} is empty`);
    } else {
      samples.set(region.name, sampleSource(setups.get(region.file) ?? [], region.lines));
    }
  }
  for (const operationId of operationIds) {
    if (!samples.has(operationId) && !errors.some((error) => error.includes(` ${operationId}`))) {
      errors.push(`${operationId}: no sample (add a // #region ${operationId} to apps/docs/examples)`);
    }
  }
  return { samples, errors };
}

/** A copy of the spec with each operation's curl sample (when given) and its client sample as `x-codeSamples`. */
export function withCodeSamples(spec, samples, curlSamples = new Map()) {
  const copy = structuredClone(spec);
  for (const { operationId, method, path } of operationsOf(copy)) {
    const source = samples.get(operationId);
    if (source === undefined) continue;
    const curl = curlSamples.get(operationId);
    copy.paths[path][method]['x-codeSamples'] = [
      ...(curl === undefined ? [] : [{ lang: CURL_LANG, label: CURL_LABEL, source: curl }]),
      { lang: SAMPLE_LANG, label: SAMPLE_LABEL, source },
    ];
  }
  return copy;
}

// The setup (its imports and clients cut down to those the sample uses), a blank line, the sample.
function sampleSource(setupLines, bodyLines) {
  const body = dedent(bodyLines).join('\n').trim();
  const importPattern = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)';/g;
  const setup = dedent(setupLines).join('\n');
  const clients = setup
    .replace(importPattern, '')
    .split('\n')
    .filter((line) => {
      const declared = /^const (\w+) =/.exec(line)?.[1];
      return line.trim() !== '' && (!declared || usesName(body, declared));
    })
    .join('\n');
  const imports = [...setup.matchAll(importPattern)].flatMap(([, type, names, from]) => {
    const used = names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && usesName(`${clients}\n${body}`, name));
    return used.length ? [`import ${type ?? ''}{ ${used.join(', ')} } from '${from}';`] : [];
  });
  return [imports.join('\n'), clients, body].filter(Boolean).join('\n\n');
}

function usesName(text, name) {
  return new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}\\b`).test(text);
}

function dedent(lines) {
  const indents = lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut));
}
