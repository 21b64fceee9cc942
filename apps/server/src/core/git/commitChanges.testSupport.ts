// Test support shared by the git tests (not built into dist): an author and a file change to commit.
import type { CommitFileChangeInput } from './repository.js';

const ALICE = {
  authorName: 'Alice',
  authorEmail: 'alice@example.com',
  committerName: 'Alice',
  committerEmail: 'alice@example.com',
};

/** A commit of one file on main by Alice, with whatever the test overrides. */
export function change(
  overrides: Partial<CommitFileChangeInput> & Pick<CommitFileChangeInput, 'filePath'>,
): CommitFileChangeInput {
  return {
    branch: 'main',
    action: 'create',
    content: Buffer.from('x\n'),
    message: 'change',
    ...ALICE,
    ...overrides,
  };
}
