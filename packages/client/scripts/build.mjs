// Builds the publishable package: dist/*.js and *.d.ts from src (tsc), then dist/spec.d.ts replaced by the
// spec's generated types. The source names those types once, in src/spec.ts (`export type … from
// '@collab/spec/schema'`); @collab/spec is a private workspace package, so the tarball carries a copy of its
// schema.d.ts instead and needs nothing but openapi-fetch at install time.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../../../scripts/buildPackage.mjs';

const schema = new URL('../node_modules/@collab/spec/dist/schema.d.ts', import.meta.url);

buildPackage({
  name: '@collab/client',
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  inputs: [{ path: 'node_modules/@collab/spec/dist/schema.d.ts' }],
  finish(building) {
    let types;
    try {
      types = readFileSync(schema, 'utf8');
    } catch {
      throw new Error('spec/dist/schema.d.ts is missing: run `pnpm --filter @collab/spec build` first');
    }
    writeFileSync(
      `${building}/spec.d.ts`,
      `// Copied from @collab/spec (dist/schema.d.ts) when @collab/client was built.\n${types}`,
    );
  },
});
