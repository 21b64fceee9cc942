// Where the rendered reference page lives, for the server to serve at /docs.
import { fileURLToPath } from 'node:url';

export const docsHtmlPath = fileURLToPath(new URL('./dist/index.html', import.meta.url));
