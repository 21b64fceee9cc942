// Type-level tests of the Appearance area (see groups.types.test.ts).
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createCollabClient } from '../../src/index.js';

type Schemas = components['schemas'];
const client = createCollabClient({
  baseUrl: 'http://127.0.0.1:1',
  retry: false,
  fetch: async () => new Response('[]'),
});

describe('Appearance: client types', () => {
  it('types a correct call and its response', async () => {
    const { data } = await client.PUT('/application/appearance', {
      body: {
        title: 'Collab',
        header_message: 'Maintenance at 18:00',
        email_header_and_footer_enabled: true,
      },
    });
    expectTypeOf(data).branded.toEqualTypeOf<Schemas['Appearance'] | undefined>();
    const current = await client.GET('/application/appearance');
    expectTypeOf(current.data).branded.toEqualTypeOf<Schemas['Appearance'] | undefined>();
  });

  it('rejects a wrong path', async () => {
    // @ts-expect-error the appearance lives under /application
    await client.GET('/appearance', {});
  });

  it('rejects a missing required parameter', async () => {
    // @ts-expect-error the PUT requires a request body (every field in it is optional)
    await client.PUT('/application/appearance', {});
  });

  it('rejects a wrong body', async () => {
    await client.PUT('/application/appearance', {
      // @ts-expect-error email_header_and_footer_enabled is a boolean
      body: { email_header_and_footer_enabled: 'yes' },
    });
    await client.PUT('/application/appearance', {
      // @ts-expect-error title is a string
      body: { title: 5 },
    });
  });
});
