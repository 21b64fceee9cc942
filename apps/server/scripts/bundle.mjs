// Builds the server's executable, `dist/main.js`, as one file: src/main.ts with every module it loads, ours and
// the dependencies', inlined. Node.js loads one file much faster than the hundreds of modules behind it
// (Kysely alone is hundreds of small ESM files), and a server's start is mostly that loading. tsc still emits
// the rest of `dist/` (the library of `dist/index.js`, the other commands) and typechecks everything.
//
// Left outside the bundle: the native SQLite drivers (loaded with require at run time) and the two workspace
// packages that find their own files from their own location (@collab/spec, @collab/docs).
//
// Whitespace and syntax are minified (names are kept, so stack traces and profiles still name functions): a
// third less text for Node.js to read and compile at every start. `node --enable-source-maps` maps the
// positions back to the sources through dist/main.js.map.
//
// Usage: node scripts/bundle.mjs   (after tsc; from the server's folder)
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['better-sqlite3', 'better-sqlite3-napi', '@collab/spec', '@collab/docs'],
  // The CommonJS dependencies call `require` for Node's own modules; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);",
  },
  logLevel: 'warning',
});
