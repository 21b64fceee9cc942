// The Project repository storage moves operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List all project repository storage moves */
export async function listProjectRepositoryStorageMoves() {
  // #region listProjectRepositoryStorageMoves
  for await (const projectRepositoryStorageMove of api.paginate(() =>
    api.GET('/project_repository_storage_moves'),
  )) {
    console.log(
      projectRepositoryStorageMove.id,
      projectRepositoryStorageMove.state,
    );
  }
  // #endregion
}

/** Get a project repository storage move */
export async function getProjectRepositoryStorageMove() {
  // #region getProjectRepositoryStorageMove
  try {
    const projectRepositoryStorageMove = await unwrap(
      api.GET('/project_repository_storage_moves/{id}', {
        params: { path: { id: 1 } },
      }),
    );
    console.log(
      projectRepositoryStorageMove.id,
      projectRepositoryStorageMove.state,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}
