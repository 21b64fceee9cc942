// Lets a package's build (tsc into dist/) be skipped when nothing it reads has changed since it last ran and
// dist/ is still what that build left: `pnpm pack` builds again (prepack) what `pnpm build` has just built,
// and the test command packs the client and the conformance tool five times. The record, kept in the
// package's node_modules/.cache/, holds a hash of the inputs (the package's own files and the declarations
// of the workspace packages it compiles against) and one of dist/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * An input: a file or a folder (every file under it), relative to the package; `declarationsOnly` keeps only
 * the .d.ts files (of another package's dist/).
 * @typedef {{ path: string, declarationsOnly?: boolean }} Input
 */

/** The files under `path` (or `path` itself), sorted, as paths relative to `base`. */
function filesOf(base, path, declarationsOnly) {
  const full = join(base, path);
  if (!existsSync(full)) return [`${path} (missing)`];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { recursive: true })
    .map((entry) => join(path, String(entry)))
    .filter((file) => statSync(join(base, file)).isFile())
    .filter((file) => !declarationsOnly || file.endsWith('.d.ts'))
    .sort();
}

/** One hash of the files' names and contents. */
function hashOf(base, inputs) {
  const hash = createHash('sha256');
  for (const { path, declarationsOnly } of inputs)
    for (const file of filesOf(base, path, declarationsOnly)) {
      hash.update(`${relative(base, join(base, file))}\0`);
      if (!file.endsWith(' (missing)')) hash.update(readFileSync(join(base, file)));
      hash.update('\0');
    }
  return hash.digest('hex');
}

/**
 * The build record of the package in `packageDir`, whose build reads `inputs` and writes `output` (a folder).
 * `upToDate()`: whether the last recorded build read the same inputs and its output is unchanged;
 * `record()`: called after a build, records it.
 * @param {string} packageDir
 * @param {Input[]} inputs
 * @param {string} output
 */
export function buildRecord(packageDir, inputs, output) {
  const file = join(packageDir, 'node_modules', '.cache', 'collab-build.json');
  const current = () => ({
    inputs: hashOf(packageDir, inputs),
    output: hashOf(packageDir, [{ path: output }]),
  });
  return {
    upToDate() {
      if (!existsSync(file) || !existsSync(join(packageDir, output))) return false;
      const recorded = JSON.parse(readFileSync(file, 'utf8'));
      const now = current();
      return recorded.inputs === now.inputs && recorded.output === now.output;
    },
    record() {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(current())}\n`);
    },
  };
}
