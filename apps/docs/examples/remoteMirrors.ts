// The Remote mirrors operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List a project's remote mirrors */
export async function listRemoteMirrors() {
  // #region listRemoteMirrors
  for await (const remoteMirror of api.paginate(() =>
    api.GET('/projects/{id}/remote_mirrors', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(remoteMirror.id);
  }
  // #endregion
}

/** Create a remote mirror */
export async function createRemoteMirror() {
  // #region createRemoteMirror
  const remoteMirror = await unwrap(
    api.POST('/projects/{id}/remote_mirrors', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        url: 'https://mirror-bot:s3cr3t-token@example.com/repo.git',
        enabled: true,
      },
    }),
  );
  console.log(remoteMirror.id);
  // #endregion
}

/** Update a remote mirror */
export async function updateRemoteMirror() {
  // #region updateRemoteMirror
  const remoteMirror = await unwrap(
    api.PUT('/projects/{id}/remote_mirrors/{mirror_id}', {
      params: { path: { id: 'my-group/my-project', mirror_id: 101 } },
      body: { enabled: false },
    }),
  );
  console.log(remoteMirror.id);
  // #endregion
}
