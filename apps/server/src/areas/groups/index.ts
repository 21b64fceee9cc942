// Groups (document 2, section 4.1): lists, subgroups, details and the projects of a group; creating, changing
// and deleting groups (issue 27, GitLab v4); the groups' avatars are stored and served by the avatars module.
import type { Area } from '../../core/area.js';
import { groupsFixtures } from './fixtures.js';
import { groupsHandlers } from './routes.js';

export { removeGroupTree } from './deletion.js';
// The users area renames a user's personal namespace with the user and deletes it with the user.
export { deletePersonalNamespace, renamePersonalNamespace } from './store.js';

export const groupsArea: Area = { name: 'groups', handlers: groupsHandlers, fixtures: groupsFixtures };
