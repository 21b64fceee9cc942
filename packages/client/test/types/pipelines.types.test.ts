// Type-level tests of the Pipelines area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Pipelines: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.POST('/projects/{id}/pipeline', {
      params: { path: { id: 5 } },
      body: { ref: 'main', variables: [{ key: 'DEPLOY', value: 'yes', variable_type: 'env_var' }] },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Pipeline'] | undefined>();
    const list = await client.GET('/projects/{id}/pipelines', {
      params: { path: { id: 5 }, query: { scope: 'finished', order_by: 'updated_at', sort: 'asc' } },
    });
    expectTypeOf(list.data).branded.toEqualTypeOf<Schemas['PipelineListItem'][] | undefined>();
    const report = await client.GET('/projects/{id}/pipelines/{pipeline_id}/test_report', {
      params: { path: { id: 5, pipeline_id: 46 } },
    });
    expectTypeOf(report.data).branded.toEqualTypeOf<Schemas['PipelineTestReport'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error pipelines are created on the singular /pipeline
    await client.POST('/projects/{id}/pipelines', { params: { path: { id: 5 } }, body: { ref: 'main' } });
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error ref is required
    await client.POST('/projects/{id}/pipeline', { params: { path: { id: 5 } }, body: { variables: [] } });
    // @ts-expect-error pipeline_id is required
    await client.POST('/projects/{id}/pipelines/{pipeline_id}/retry', { params: { path: { id: 5 } } });
  });

  it('rejects a wrong body', async () => {
    await client.POST('/projects/{id}/pipeline', {
      params: { path: { id: 5 } },
      // @ts-expect-error variable_type is env_var or file
      body: { ref: 'main', variables: [{ key: 'A', value: 'b', variable_type: 'secret' }] },
    });
  });
});
