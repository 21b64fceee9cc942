// The license of a project (`GET /projects/:id?license=true`, GitLab's LicenseBasic): the license file at the
// top of the default branch, recognised by the distinctive sentences of the common licenses (GitLab uses the
// licensee gem to the same end). A license file that matches none of them is GitLab's `other`.
import type { ProjectRow } from '../../core/access/access.js';
import type { ServerContext } from '../../core/context.js';
import { repositoryReadCache } from '../../core/git/readCache.js';
import { repositoryOf } from '../../core/git/repositories.js';
import type { Schemas } from '../../core/http/types.js';

type License = Schemas['ProjectLicense'];

/** The file names licensee looks at, at the top of the tree. */
const LICENSE_FILE = /^(un)?(licen[cs]e|copying)([-.][^/]*)?$/i;

/** Checked in order: the more specific texts (LGPL, AGPL) before the ones whose sentences they contain. */
const KNOWN: readonly { license: License; matches: (text: string) => boolean }[] = [
  {
    license: known('agpl-3.0', 'GNU Affero General Public License v3.0', 'GNU AGPLv3', 'AGPL-3.0'),
    matches: (text) => /gnu affero general public license\s+version 3/.test(text),
  },
  {
    license: known('lgpl-3.0', 'GNU Lesser General Public License v3.0', 'GNU LGPLv3', 'LGPL-3.0'),
    matches: (text) => /gnu lesser general public license\s+version 3/.test(text),
  },
  {
    license: known('gpl-3.0', 'GNU General Public License v3.0', 'GNU GPLv3', 'GPL-3.0'),
    matches: (text) => /gnu general public license\s+version 3/.test(text),
  },
  {
    license: known('gpl-2.0', 'GNU General Public License v2.0', 'GNU GPLv2', 'GPL-2.0'),
    matches: (text) => /gnu general public license\s+version 2/.test(text),
  },
  {
    license: known('apache-2.0', 'Apache License 2.0', null, 'Apache-2.0'),
    matches: (text) => /apache license,?\s+version 2\.0/.test(text),
  },
  {
    license: known('mpl-2.0', 'Mozilla Public License 2.0', null, 'MPL-2.0'),
    matches: (text) => /mozilla public license,?\s+(version|v\.?)\s*2\.0/.test(text),
  },
  {
    license: known('unlicense', 'The Unlicense', null, 'Unlicense'),
    matches: (text) => /this is free and unencumbered software released into the public domain/.test(text),
  },
  {
    license: known('isc', 'ISC License', null, 'ISC'),
    matches: (text) =>
      /permission to use, copy, modify, and\/?or distribute this software for any purpose/.test(text),
  },
  {
    license: known('mit', 'MIT License', null, 'MIT'),
    matches: (text) => /permission is hereby granted, free of charge, to any person/.test(text),
  },
  {
    license: known('bsd-3-clause', 'BSD 3-Clause "New" or "Revised" License', null, 'BSD-3-Clause'),
    matches: (text) =>
      /redistribution and use in source and binary forms/.test(text) && /neither the name/.test(text),
  },
  {
    license: known('bsd-2-clause', 'BSD 2-Clause "Simplified" License', null, 'BSD-2-Clause'),
    matches: (text) => /redistribution and use in source and binary forms/.test(text),
  },
];

function known(key: string, name: string, nickname: string | null, spdx: string): License {
  return {
    key,
    name,
    nickname,
    html_url: `http://choosealicense.com/licenses/${key}/`,
    source_url: `https://opensource.org/licenses/${spdx}`,
  };
}

const OTHER: License = { key: 'other', name: 'Other', nickname: null, html_url: null, source_url: null };

/** Recognises a license text (whitespace and case do not matter). */
export function recogniseLicense(text: string): License {
  const normalised = text.toLowerCase().replace(/\s+/g, ' ');
  return KNOWN.find((candidate) => candidate.matches(normalised))?.license ?? OTHER;
}

/** The license file at the top of the default branch and what it is; nulls when there is none. */
async function detectLicense(
  context: ServerContext,
  project: ProjectRow,
): Promise<{ file: string | null; license: License | null }> {
  const repository = repositoryOf(context, project);
  return repositoryReadCache.get(repository.path, `projects:license\0${project.default_branch}`, async () => {
    let file: string | undefined;
    try {
      const files = await repository.listTreeFiles(project.default_branch, { recursive: false });
      file = (files ?? [])
        .map((entry) => entry.path)
        .filter((path) => LICENSE_FILE.test(path))
        .sort()[0];
      if (!file) return { file: null, license: null };
      const blob = await repository.readFile(project.default_branch, file);
      // Only the start of a large file: the sentences that tell licenses apart come early.
      const text = blob ? blob.content.subarray(0, 64 * 1024).toString('utf8') : '';
      return { file, license: recogniseLicense(text) };
    } catch {
      // A repository git cannot read (empty, being moved) has no license, as for the README.
      return { file: null, license: null };
    }
  });
}

/** `license_url` (the license file's web URL) and `license`, for a project whose web URL is `webUrl`. */
export async function licenseFields(
  context: ServerContext,
  project: ProjectRow,
  webUrl: string,
): Promise<{ license_url: string | null; license: License | null }> {
  const { file, license } = await detectLicense(context, project);
  return {
    license_url: file ? `${webUrl}/-/blob/${project.default_branch}/${file}` : null,
    license,
  };
}
