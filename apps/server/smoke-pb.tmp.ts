import { createApp, readFixturesFile, DEMO_FIXTURES_PATH } from './src/index.js';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
const dir = mkdtempSync('/tmp/pbsmoke/d');
const s = await createApp({ dataDir: dir, fixtures: await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH)), validateResponses: true });
s.app.listen(4777, () => console.log('up'));
