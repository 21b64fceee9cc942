// Epics of groups (document 2, section 4.7; higher tier): list, read, create, update, delete, and the epic
// to-do. Other areas reach epics through the exports below: the notes area reads the epic a note is on
// (findReadableEpic) and is told when an epic is closed or reopened (onEpicStateChange, for system notes).
import type { Area } from '../../core/area.js';
import { epicsFixtures } from './fixtures.js';
import { epicsHandlers } from './routes.js';
// Registers epics as to-do targets (the to-do list presents them).
import './todo.js';

export const epicsArea: Area = { name: 'epics', handlers: epicsHandlers, fixtures: epicsFixtures };
// The feature flag behind confidential epics is one of the server's switches (areas/features/switches.ts).
export { CONFIDENTIAL_EPICS_FEATURE } from '../features/index.js';
export type { Epic } from './present.js';
export {
  type EpicStateChange,
  type EpicStateListener,
  findReadableEpic,
  onEpicStateChange,
  type ReadableEpic,
} from './service.js';
// A user's deletion hands the user's epics over (users area, in its transaction).
export { EPIC_TYPE, type EpicRow, handOverEpics } from './store.js';
