// vitest's global set-up of the server's tests: with COLLAB_TEST_DATABASE=postgres, one PostgreSQL for the
// run (core/store/testPostgres.ts), each test server on a database of its own in it.
import { setUpTestPostgres } from './core/store/testPostgres.js';

export default setUpTestPostgres;
