// Loaded by `collab-conformance run` into every test file (vitest's setupFiles): tells the validating fetch
// which test its requests belong to, so the report can map a failed test to the operation it was calling.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { setCurrentTest } from '../validatingFetch.js';

beforeAll(() => {
  const file = expect.getState().testPath;
  if (file) setCurrentTest({ file });
});
beforeEach((context) => {
  setCurrentTest({ id: context.task.id, file: context.task.file.filepath });
});
// Requests of afterEach/afterAll hooks belong to the file, not to the test that ran last.
afterEach((context) => {
  setCurrentTest({ file: context.task.file.filepath });
});
afterAll(() => {
  setCurrentTest(undefined);
});
