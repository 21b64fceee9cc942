// The Appearance operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { readFile } from 'node:fs/promises';
import { createCollabClient, multipart, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get the instance appearance */
export async function getAppearance() {
  // #region getAppearance
  const appearance = await unwrap(api.GET('/application/appearance'));
  console.log(appearance.title);
  // #endregion
}

/** Update the instance appearance */
export async function updateAppearance() {
  // #region updateAppearance
  // With a logo: a multipart body (text fields only: a JSON body will do).
  const logo = new File([await readFile('logo.png')], 'logo.png', {
    type: 'image/png',
  });
  const appearance = await unwrap(
    api.PUT(
      '/application/appearance',
      multipart<'/application/appearance', 'put'>({
        title: 'Collab',
        description: 'Sign in with your company account.',
        logo,
      }),
    ),
  );
  console.log(appearance.title);
  // #endregion
}
