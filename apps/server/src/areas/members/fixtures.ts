// The direct members of a fixtures file's groups, then of its projects, in file order.
import type { AreaFixtures } from '../../core/area.js';
import { insertMember } from './store.js';

export const membersFixtures: AreaFixtures = {
  after: ['users', 'groups', 'projects'],
  async load({ fixtures, trx, now, users, groups, projects }) {
    for (const group of fixtures.groups) {
      const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
      for (const member of group.members ?? [])
        await insertMember(trx, {
          sourceType: 'Group',
          sourceId: groups.get(fullPath),
          userId: users.get(member.username),
          accessLevel: member.access_level,
          now,
        });
    }
    for (const project of fixtures.projects)
      for (const member of project.members ?? [])
        await insertMember(trx, {
          sourceType: 'Project',
          sourceId: projects.get(`${project.namespace}/${project.path}`).id,
          userId: users.get(member.username),
          accessLevel: member.access_level,
          now,
        });
  },
};
