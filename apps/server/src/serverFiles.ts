// Where the server's own files are, named from this module's URL. It sits at the top of `src/`, so its
// directory is `src/` under tsx and vitest and `dist/` when built; the one-file build of the executable
// (`dist/main.js`, scripts/bundle.mjs) inlines it and sits in `dist/` too, so the same URLs hold there.
import { fileURLToPath } from 'node:url';

/** The directory of the running code: `src/` or `dist/`. */
export const CODE_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The server's package: its package.json and `fixtures/` are here. */
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
