#!/usr/bin/env node
// The built executable, `dist/main.js` (scripts/bundle.mjs): runs the one-file build of src/main.ts,
// `dist/server.cjs`, with the code cache of src/codeCache.ts.
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './codeCache.js';

runWithCodeCache(fileURLToPath(new URL('./server.cjs', import.meta.url)));
