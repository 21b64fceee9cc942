// Builds the publishable package: dist/*.js and *.d.ts from src (tsc), then dist/spec.d.ts replaced by the
// spec's generated types. The source names those types once, in src/spec.ts (`export type … from
// '@collab/spec/schema'`); @collab/spec is a private workspace package, so the tarball carries a copy of its
// schema.d.ts instead and needs nothing but openapi-fetch at install time.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const dist = new URL('../dist/', import.meta.url);
const schema = new URL('../node_modules/@collab/spec/dist/schema.d.ts', import.meta.url);

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });

let types;
try {
  types = readFileSync(schema, 'utf8');
} catch {
  throw new Error('spec/dist/schema.d.ts is missing: run `pnpm --filter @collab/spec build` first');
}
writeFileSync(
  new URL('spec.d.ts', dist),
  `// Copied from @collab/spec (dist/schema.d.ts) when @collab/client was built.\n${types}`,
);
