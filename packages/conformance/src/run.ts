// A suffix of this run of the suite, for the names of the objects the tests create (branches, protected
// branch rules, files, feature flags, imported projects): a second run against the same server, without a
// restart, then finds none of its names taken.
import { randomBytes } from 'node:crypto';

/**
 * New for every test file on every run: the time in base 36 and four random hex digits, so two files that
 * load in the same millisecond still differ. Lower-case letters and digits only, which fits every name the
 * API takes (feature names, project paths, branch names).
 */
export const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
