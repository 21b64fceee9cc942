// The protected branches of a fixtures file's projects: a push and a merge level each, unprotecting left to
// maintainers.
import type { AreaFixtures } from '../../core/area.js';
import { insertProtectedBranch } from './store.js';

export const protectedBranchesFixtures: AreaFixtures = {
  after: ['projects'],
  async load({ fixtures, trx, now, projects }) {
    for (const project of fixtures.projects) {
      const projectId = projects.get(`${project.namespace}/${project.path}`).id;
      for (const rule of project.protected_branches ?? [])
        await insertProtectedBranch(
          trx,
          { projectId, name: rule.name, codeOwnerApprovalRequired: false, createdAt: now },
          [
            { action: 'push', accessLevel: rule.push_access_level, userId: null, groupId: null },
            { action: 'merge', accessLevel: rule.merge_access_level, userId: null, groupId: null },
            { action: 'unprotect', accessLevel: 40, userId: null, groupId: null },
          ],
        );
    }
  },
};
