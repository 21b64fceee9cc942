// Builds the reference docs: type-checks the example files, takes each operation's sample from them and its
// curl sample made from the spec (curl.mjs) into a copy of the bundled spec (dist/openapi.json,
// `x-codeSamples`), renders that copy with `redocly build-docs` into dist/index.html, makes its prerendered
// menu links hash links (hashLinks.mjs), keeps every asset on the page's own host (offline.mjs) and adds the
// page's own style (pageStyle.mjs). Fails when a sample does not compile, an operation has no sample, a
// sample names an operation the spec does not have, or a curl sample's request does not validate.
//
//   node scripts/build.mjs                    type-check, check, render
//   node scripts/build.mjs --check            type-check and check only (no rendering)
//   node scripts/build.mjs --examples DIR     the example files of DIR (with its tsconfig.json)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundledSpecJsonPath } from '@collab/spec';
import { curlSamplesFor } from './curl.mjs';
import { pathStyleLinks, withHashLinks } from './hashLinks.mjs';
import { externalFetches, telemetryOff, withLocalLogo } from './offline.mjs';
import { withPageStyle } from './pageStyle.mjs';
import { readRegions, samplesFor, withCodeSamples } from './samples.mjs';

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { check: { type: 'boolean', default: false }, examples: { type: 'string' } },
});
const examplesDir = resolve(values.examples ?? join(docsDir, 'examples'));
const bin = (name) => join(docsDir, 'node_modules', '.bin', name);

function fail(title, problems) {
  console.error(`docs: ${title}\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exit(1);
}

// 1. Every sample compiles against the client's types.
try {
  execFileSync(bin('tsc'), ['-p', join(examplesDir, 'tsconfig.json')], { cwd: docsDir, encoding: 'utf8' });
} catch (error) {
  fail('the code samples do not compile (tsc -p examples/tsconfig.json):', [
    ...`${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n'),
  ]);
}

// 2. One sample per operation, and no sample of an operation that does not exist.
const spec = JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8'));
const { regions, errors: regionErrors } = readRegions(examplesDir);
const { samples, errors } = samplesFor(spec, regions);
if (regionErrors.length + errors.length > 0) {
  fail('the code samples do not match the spec’s operations:', [...regionErrors, ...errors]);
}
console.log(`docs: ${samples.size} code samples, one per operation, compiled and checked`);
const curl = curlSamplesFor(spec, samples);
if (curl.errors.length > 0) fail('the curl samples are not valid requests of their operations:', curl.errors);
console.log(`docs: ${curl.samples.size} curl samples, their requests validated against their operations`);
if (values.check) process.exit(0);

// 3. Render the spec with its samples (the copy only: the spec's sources and bundle stay without them).
const distDir = join(docsDir, 'dist');
mkdirSync(distDir, { recursive: true });
const documented = join(distDir, 'openapi.json');
writeFileSync(documented, `${JSON.stringify(withCodeSamples(spec, samples, curl.samples), null, 2)}\n`);
execFileSync(
  bin('redocly'),
  [
    'build-docs',
    documented,
    '--output',
    join(distDir, 'index.html'),
    '--title',
    'Collab API reference',
    '--inlineBundle',
    '--config',
    join(docsDir, 'redocly.yaml'),
  ],
  // The CLI's own usage telemetry (redocly.yaml turns off the page's).
  { cwd: docsDir, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
);

// 4. The prerendered menu links as the hash links Redoc routes by, so a copied or reloaded link stays in /docs.
const page = join(distDir, 'index.html');
const html = withHashLinks(readFileSync(page, 'utf8'));
const left = pathStyleLinks(html);
if (left.length > 0) fail('path-style links left in the page:', left);
console.log('docs: menu links are hash links (/docs#/<tag>/<operation>)');

// 5. Nothing fetched from another host: the logo becomes an inline image (the build fails if Redoc's logo
// moved, so that its new address is looked at), then the page's style for its code samples.
const local = withLocalLogo(html);
if (local.replaced === 0)
  fail('Redocly’s CDN logo was not found: check what the page loads from elsewhere', []);
if (!telemetryOff(local.html)) fail('Redoc’s telemetry is not turned off in the page’s options', []);
const external = externalFetches(local.html);
if (external.length > 0) fail('the page still fetches from other hosts:', external);
writeFileSync(page, withPageStyle(local.html));
console.log('docs: no asset from another host; samples wrap in their panel');
