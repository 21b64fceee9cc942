// Remote (push) mirrors (document 1, section 4.6).
import type { Area } from '../../core/area.js';
import { registerRemoteMirrorJobs } from './jobs.js';
import { remoteMirrorsHandlers } from './routes.js';

export const remoteMirrorsArea: Area = {
  name: 'remoteMirrors',
  handlers: remoteMirrorsHandlers,
  registerJobs: registerRemoteMirrorJobs,
};
