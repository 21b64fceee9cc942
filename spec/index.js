// Where the bundled spec lives, for the server, the docs and the conformance suite.
import { fileURLToPath } from 'node:url';

export const bundledSpecJsonPath = fileURLToPath(new URL('./dist/openapi.json', import.meta.url));
export const bundledSpecYamlPath = fileURLToPath(new URL('./dist/openapi.yaml', import.meta.url));
/** The document the server reads at start: the bundled spec without descriptions and examples (scripts/serverDocument.mjs). */
export const serverSpecJsonPath = fileURLToPath(new URL('./dist/openapi.server.json', import.meta.url));
