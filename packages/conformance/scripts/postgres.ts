// vitest's global set-up for a run on PostgreSQL (COLLAB_TEST_DATABASE=postgres): one PostgreSQL for the
// run, its URL handed to the servers the run starts (the server's core/store/testPostgres.ts). Both projects
// of the run list it: the first starts the cluster, the others find it started.
import { setUpTestPostgres } from '@collab/server/testPostgres';

export default setUpTestPostgres;
