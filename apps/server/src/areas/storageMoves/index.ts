// Project repository storage moves (document 1, section 4.8).
import type { Area } from '../../core/area.js';
import { registerStorageMoveJobs } from './jobs.js';
import { storageMovesHandlers } from './routes.js';

export const storageMovesArea: Area = {
  name: 'storageMoves',
  handlers: storageMovesHandlers,
  registerJobs: registerStorageMoveJobs,
};
