// Prints the minified + gzipped size of the built entry (dist/index.js, run `pnpm build` first): the
// client's own code, and the whole runtime with openapi-fetch bundled in. Uses the esbuild the workspace
// already has (through tsx and vite), found in pnpm's store, rather than a dependency of its own.
import { readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const store = new URL('../../../node_modules/.pnpm/', import.meta.url);
const folder = readdirSync(store).find((name) => /^esbuild@\d/.test(name));
if (!folder) throw new Error('esbuild is not in node_modules/.pnpm: run pnpm install');
const { build } = await import(new URL(`${folder}/node_modules/esbuild/lib/main.js`, store).href);

const entry = new URL('../dist/index.js', import.meta.url).pathname;
for (const [label, external] of [
  ['@collab/client alone', ['openapi-fetch']],
  ['@collab/client with openapi-fetch', []],
]) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    external,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(`${label}: ${kB(code.length)} minified, ${kB(gzipSync(code, { level: 9 }).length)} gzipped`);
}
