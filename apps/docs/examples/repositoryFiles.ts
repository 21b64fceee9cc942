// The Repository files operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import {
  CollabApiError,
  createCollabClient,
  repositoryFileHeaders,
  unwrap,
} from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** Get a file */
export async function getRepositoryFile() {
  // #region getRepositoryFile
  try {
    const repositoryFile = await unwrap(
      api.GET('/projects/{id}/repository/files/{file_path}', {
        params: {
          path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
          query: { ref: 'main' },
        },
      }),
    );
    console.log(
      repositoryFile.file_name,
      Buffer.from(repositoryFile.content, 'base64').toString('utf8'),
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a file's metadata */
export async function headRepositoryFile() {
  // #region headRepositoryFile
  const { response } = await api.HEAD(
    '/projects/{id}/repository/files/{file_path}',
    {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
        query: { ref: 'main' },
      },
    },
  );
  const file = repositoryFileHeaders(response); // throws CollabApiError on a 404
  console.log(file['X-Service-Size'], file['X-Service-Last-Commit-Id']);
  // #endregion
}

/** Create a file */
export async function createRepositoryFile() {
  // #region createRepositoryFile
  const written = await unwrap(
    api.POST('/projects/{id}/repository/files/{file_path}', {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
      },
      body: {
        branch: 'main',
        content: '# My project\n\nHow to build and run it.\n',
        commit_message: 'Update the docs',
      },
    }),
  );
  console.log(written.file_path, written.branch);
  // #endregion
}

/** Update a file */
export async function updateRepositoryFile() {
  // #region updateRepositoryFile
  const written = await unwrap(
    api.PUT('/projects/{id}/repository/files/{file_path}', {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
      },
      body: {
        branch: 'main',
        content: '# My project\n\nHow to build and run it.\n',
        commit_message: 'Update the docs',
      },
    }),
  );
  console.log(written.file_path, written.branch);
  // #endregion
}

/** Delete a file */
export async function deleteRepositoryFile() {
  // #region deleteRepositoryFile
  await unwrap(
    api.DELETE('/projects/{id}/repository/files/{file_path}', {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
      },
      body: { branch: 'main', commit_message: 'Update the docs' },
    }),
  );
  // #endregion
}

/** Get a file's blame */
export async function getRepositoryFileBlame() {
  // #region getRepositoryFileBlame
  const ranges = await unwrap(
    api.GET('/projects/{id}/repository/files/{file_path}/blame', {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
        query: { ref: 'main' },
      },
    }),
  );
  for (const range of ranges) {
    console.log(range.commit.id, range.lines.length);
  }
  // #endregion
}

/** Get a file's metadata (blame route) */
export async function headRepositoryFileBlame() {
  // #region headRepositoryFileBlame
  const { response } = await api.HEAD(
    '/projects/{id}/repository/files/{file_path}/blame',
    {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
        query: { ref: 'main' },
      },
    },
  );
  const file = repositoryFileHeaders(response); // throws CollabApiError on a 404
  console.log(file['X-Service-Size'], file['X-Service-Last-Commit-Id']);
  // #endregion
}

/** Get a file's raw content */
export async function getRepositoryFileRaw() {
  // #region getRepositoryFileRaw
  try {
    const content = await unwrap(
      api.GET('/projects/{id}/repository/files/{file_path}/raw', {
        params: {
          path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
          query: { ref: 'main' },
        },
        parseAs: 'text',
      }),
    );
    console.log(content);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Get a file's metadata (raw route) */
export async function headRepositoryFileRaw() {
  // #region headRepositoryFileRaw
  const { response } = await api.HEAD(
    '/projects/{id}/repository/files/{file_path}/raw',
    {
      params: {
        path: { id: 'my-group/my-project', file_path: 'docs/README.md' },
        query: { ref: 'main' },
      },
    },
  );
  const file = repositoryFileHeaders(response); // throws CollabApiError on a 404
  console.log(file['X-Service-Size'], file['X-Service-Last-Commit-Id']);
  // #endregion
}
