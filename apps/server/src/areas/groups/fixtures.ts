// The groups of a fixtures file (parents before their subgroups) and their custom attributes. Their members,
// labels, epics and single sign-on are loaded by the members, groupLabels, epics and scim areas.
import type { AreaFixtures } from '../../core/area.js';
import { insertCustomAttributes } from '../../core/store/customAttributes.js';
import { insertGroup } from './store.js';

export const groupsFixtures: AreaFixtures = {
  after: [],
  async load({ fixtures, trx, now, groups }) {
    for (const group of fixtures.groups) {
      const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
      const id = await insertGroup(trx, {
        name: group.name,
        path: group.path,
        full_path: fullPath,
        parent_id: group.parent ? groups.get(group.parent) : null,
        visibility: group.visibility,
        description: group.description ?? '',
        created_at: now,
        kind: group.kind ?? 'group',
        // The settings a file gives; the others keep their columns' defaults (GitLab's).
        ...(group.project_creation_level ? { project_creation_level: group.project_creation_level } : {}),
        ...(group.subgroup_creation_level ? { subgroup_creation_level: group.subgroup_creation_level } : {}),
        ...(group.request_access_enabled === undefined
          ? {}
          : { request_access_enabled: group.request_access_enabled ? 1 : 0 }),
      });
      groups.set(fullPath, id);
      await insertCustomAttributes(trx, 'Group', id, group.custom_attributes ?? {}, now);
    }
  },
};
