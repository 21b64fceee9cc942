// A suffix of this run of the suite, for the names of the objects the tests create (branches, protected
// branch rules, files, feature flags, imported projects): a second run against the same server, without a
// restart, then finds none of its names taken.
import { randomBytes } from 'node:crypto';

/**
 * New for every test file on every run: the time in base 36 and four random hex digits, so two files that
 * load in the same millisecond still differ. Lower-case letters and digits only, which fits every name the
 * API takes (feature names, project paths, branch names). COLLAB_CONFORMANCE_RUN (1-16 of those characters)
 * sets it: `collab-conformance fuzz` derives it from its seed, so a seed names the same requests every time.
 * A binding that `renewRun` changes: the importers of an ES module see its current value.
 */
export let RUN = newRun();

function newRun(): string {
  return /^[a-z0-9]{1,16}$/.test(process.env.COLLAB_CONFORMANCE_RUN ?? '')
    ? (process.env.COLLAB_CONFORMANCE_RUN as string)
    : `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

/**
 * A new suffix for the next test file, where the files of a test worker share their modules (vitest's
 * `isolate: false`, the warm project of vitest.config.ts) and this module is loaded once for all of them:
 * each file's names and searches stay its own, as when every file loads the module anew.
 */
export function renewRun(): void {
  RUN = newRun();
}
