// The labels of a fixtures file's groups.
import type { AreaFixtures } from '../../core/area.js';
import { insertGroupLabel } from './store.js';

export const groupLabelsFixtures: AreaFixtures = {
  after: ['groups'],
  async load({ fixtures, trx, now, groups }) {
    for (const group of fixtures.groups) {
      const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
      for (const label of group.labels ?? [])
        await insertGroupLabel(trx, {
          groupId: groups.get(fullPath),
          title: label.name,
          color: label.color,
          description: label.description ?? null,
          now,
        });
    }
  },
};
