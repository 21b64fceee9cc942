// Repository files (document 1, section 4.1): read, blame, raw, create, update and delete files.
import type { Area } from '../../core/area.js';
import { repositoryFilesHandlers } from './routes.js';

export const repositoryFilesArea: Area = { name: 'repositoryFiles', handlers: repositoryFilesHandlers };
