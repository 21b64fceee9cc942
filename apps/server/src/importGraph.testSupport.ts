// The runtime import graph of a source tree, for the architecture test: which of its files each file loads
// when it runs. Each file is transpiled as the build emits it (the project's verbatimModuleSyntax), so an
// `import type` or `export type` is not an edge, while `import { type A }` (emitted as `import {} from`) and
// side-effect imports are. Imports of packages and of files outside the tree are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** File (relative to the root, `.ts`) → the files of the tree it imports at runtime. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => name.split('\\').join('/'))
    .sort();
}

/** The module names a file loads when it runs: static imports, re-exports and `import()` calls. */
function runtimeSpecifiers(source: string, fileName: string): string[] {
  const { outputText } = ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  });
  const { importedFiles } = ts.preProcessFile(outputText, true, true);
  return importedFiles.map((file) => file.fileName);
}

export function runtimeImportGraph(root: string): ImportGraph {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const absolute = join(root, file);
    const targets = runtimeSpecifiers(readFileSync(absolute, 'utf8'), absolute)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(root, resolve(dirname(absolute), specifier.replace(/\.js$/, '.ts'))))
      .map((name) => name.split('\\').join('/'))
      .filter((name) => known.has(name));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The import cycles of the graph, one per strongly connected component of more than one file (or a file
 * importing itself), each as its files sorted (Tarjan's algorithm).
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    lowLink.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
