// The Metadata operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get the version of the instance */
export async function getVersion() {
  // #region getVersion
  const version = await unwrap(api.GET('/version'));
  console.log(version.version);
  // #endregion
}

/** Get the metadata of the instance */
export async function getMetadata() {
  // #region getMetadata
  const version = await unwrap(api.GET('/metadata'));
  console.log(version.version);
  // #endregion
}
