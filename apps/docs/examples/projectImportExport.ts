// The Project import/export operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { readFile, writeFile } from 'node:fs/promises';
import {
  CollabApiError,
  createCollabClient,
  multipart,
  unwrap,
} from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get the export status of a project */
export async function getProjectExportStatus() {
  // #region getProjectExportStatus
  try {
    const projectExportStatus = await unwrap(
      api.GET('/projects/{id}/export', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      projectExportStatus.path_with_namespace,
      projectExportStatus.name,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Schedule a project export */
export async function scheduleProjectExport() {
  // #region scheduleProjectExport
  const projectExportScheduled = await unwrap(
    api.POST('/projects/{id}/export', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        description: 'Snapshot for the archive',
        upload: {
          url: 'https://storage.example.com/exports/my-project.tar.gz?signature=abc123',
          http_method: 'PUT',
        },
      },
    }),
  );
  console.log(projectExportScheduled.message);
  // #endregion
}

/** Download the export archive of a project */
export async function downloadProjectExport() {
  // #region downloadProjectExport
  try {
    const archive = await unwrap(
      api.GET('/projects/{id}/export/download', {
        params: { path: { id: 'my-group/my-project' } },
        parseAs: 'blob',
      }),
    );
    await writeFile(
      'my-project.tar.gz',
      Buffer.from(await archive.arrayBuffer()),
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Import a project from an export archive */
export async function importProject() {
  // #region importProject
  const file = new File(
    [await readFile('my-project.tar.gz')],
    'my-project.tar.gz',
  );
  const projectImportStatus = await unwrap(
    api.POST(
      '/projects/import',
      multipart<'/projects/import'>({
        file,
        path: 'imported-project',
        namespace: 'my-group',
      }),
    ),
  );
  console.log(
    projectImportStatus.path_with_namespace,
    projectImportStatus.name,
  );
  // #endregion
}

/** Get the import status of a project */
export async function getProjectImportStatus() {
  // #region getProjectImportStatus
  try {
    const projectImportStatus = await unwrap(
      api.GET('/projects/{id}/import', {
        params: { path: { id: 'my-group/my-project' } },
      }),
    );
    console.log(
      projectImportStatus.path_with_namespace,
      projectImportStatus.name,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}
