// The Features operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List feature flags */
export async function listFeatures() {
  // #region listFeatures
  for await (const feature of api.paginate(() => api.GET('/features'))) {
    console.log(feature.name, feature.state);
  }
  // #endregion
}

/** Set or create a feature flag */
export async function setFeatureGate() {
  // #region setFeatureGate
  const feature = await unwrap(
    api.POST('/features/{name}', {
      params: { path: { name: 'new_library' } },
      body: { value: true },
    }),
  );
  console.log(feature.name, feature.state);
  // #endregion
}

/** Delete a feature flag */
export async function deleteFeature() {
  // #region deleteFeature
  await unwrap(
    api.DELETE('/features/{name}', {
      params: { path: { name: 'new_library' } },
    }),
  );
  // #endregion
}
