// The Pipelines operations as @collab/client calls them: each region is the code sample the reference docs
// show for the operation it names (apps/docs/scripts/build.mjs), type-checked by the docs build.
// #region setup
import { CollabApiError, createCollabClient, unwrap } from '@collab/client';

const api = createCollabClient({
  baseUrl: 'http://localhost:3000',
  token: process.env.COLLAB_TOKEN,
});
// #endregion

/** List pipelines */
export async function listPipelines() {
  // #region listPipelines
  for await (const pipeline of api.paginate(() =>
    api.GET('/projects/{id}/pipelines', {
      params: { path: { id: 'my-group/my-project' } },
    }),
  )) {
    console.log(pipeline.web_url, pipeline.id);
  }
  // #endregion
}

/** Get a pipeline */
export async function getPipeline() {
  // #region getPipeline
  try {
    const pipeline = await unwrap(
      api.GET('/projects/{id}/pipelines/{pipeline_id}', {
        params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
      }),
    );
    console.log(pipeline.web_url, pipeline.id);
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Delete a pipeline */
export async function deletePipeline() {
  // #region deletePipeline
  await unwrap(
    api.DELETE('/projects/{id}/pipelines/{pipeline_id}', {
      params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
    }),
  );
  // #endregion
}

/** List a pipeline's variables */
export async function getPipelineVariables() {
  // #region getPipelineVariables
  for await (const pipelineVariable of api.paginate(() =>
    api.GET('/projects/{id}/pipelines/{pipeline_id}/variables', {
      params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
    }),
  )) {
    console.log(pipelineVariable.key);
  }
  // #endregion
}

/** Get a pipeline's test report */
export async function getPipelineTestReport() {
  // #region getPipelineTestReport
  try {
    const pipelineTestReport = await unwrap(
      api.GET('/projects/{id}/pipelines/{pipeline_id}/test_report', {
        params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
      }),
    );
    console.log(
      `${pipelineTestReport.failed_count} of ${pipelineTestReport.total_count} tests failed`,
    );
  } catch (error) {
    if (error instanceof CollabApiError && error.status === 404)
      console.log(error.body?.message);
    else throw error;
  }
  // #endregion
}

/** Create a pipeline */
export async function createPipeline() {
  // #region createPipeline
  const pipeline = await unwrap(
    api.POST('/projects/{id}/pipeline', {
      params: { path: { id: 'my-group/my-project' } },
      body: {
        ref: 'main',
        variables: [{ key: 'RUN_NIGHTLY_BUILD', value: 'true' }],
      },
    }),
  );
  console.log(pipeline.web_url, pipeline.id);
  // #endregion
}

/** Retry a pipeline */
export async function retryPipeline() {
  // #region retryPipeline
  const pipeline = await unwrap(
    api.POST('/projects/{id}/pipelines/{pipeline_id}/retry', {
      params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
    }),
  );
  console.log(pipeline.web_url, pipeline.id);
  // #endregion
}

/** Cancel a pipeline */
export async function cancelPipeline() {
  // #region cancelPipeline
  const pipeline = await unwrap(
    api.POST('/projects/{id}/pipelines/{pipeline_id}/cancel', {
      params: { path: { id: 'my-group/my-project', pipeline_id: 46 } },
    }),
  );
  console.log(pipeline.web_url, pipeline.id);
  // #endregion
}
