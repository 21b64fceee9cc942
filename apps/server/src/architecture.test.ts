// The server's walls: no runtime import cycle among its files, and core/ never imports an area.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, runtimeImportGraph } from './importGraph.testSupport.js';

const SOURCE_ROOT = fileURLToPath(new URL('.', import.meta.url));

describe('the runtime import graph of apps/server/src', () => {
  const graph = runtimeImportGraph(SOURCE_ROOT);

  it('reads the files and their imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app.ts')).toContain('areas/issues/index.ts');
  });

  it('has no import cycle (type-only imports do not count)', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  // Tests are left out here: a test of core/ may use an area's helper (core/git's tests build mirror URLs).
  it('has no import from core/ into an area in the running server', () => {
    const intoAreas = [...graph]
      .filter(([file]) => file.startsWith('core/') && !/\.test(Support)?\.ts$/.test(file))
      .flatMap(([file, targets]) =>
        targets.filter((target) => target.startsWith('areas/')).map((target) => `${file} -> ${target}`),
      );
    expect(intoAreas).toEqual([]);
  });
});

describe('the import cycle finder', () => {
  const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (name: string, text: string) => writeFileSync(join(root, name), text);

  it('finds a runtime cycle, including side-effect and `{ type }` imports, and ignores `import type`', () => {
    write('a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    write('b.ts', "import './c.js';\nexport const b = 1;\n");
    write('c.ts', "import { type A } from './a.js';\nexport type C = A;\n");
    write(
      'd.ts',
      "import type { a } from './a.js';\nexport type { b } from './b.js';\nexport const d = 1;\n",
    );
    write('e.ts', "import { d } from './d.js';\nexport const e = d;\n");
    const graph = runtimeImportGraph(root);
    expect(graph.get('d.ts')).toEqual([]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
