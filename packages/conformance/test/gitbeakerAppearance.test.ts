// gitbeaker (@gitbeaker/rest 43.8) against the instance appearance: its ApplicationAppearance resource,
// show() and edit(), the JSON form of edit and its multipart form with a logo file.
//
// gitbeaker 43.8 misspells the path: both methods call `application/appearence`, which GitLab does not serve
// (404), and neither does this server (the first test checks that it answers as GitLab does). To drive what
// the methods send (gitbeaker's own requests: its auth header, its JSON body with snake_case keys, its
// multipart body with the file part), every other test corrects that one path segment on the way out and
// nothing else. Every response of the API also goes through the suite's validating fetch.
//
// On a shared server the texts this file changes are put back at the end (the logo cannot be removed through
// the API and stays this run's file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { gitbeakerClients, refusal, validateGlobalFetch } from './gitbeakerSupport.js';

let target: Target;
const as = gitbeakerClients(() => target);

const originalFetch = globalThis.fetch;
let restoreFetch = () => {};
/** gitbeaker's misspelt path, and the path GitLab serves. */
const MISSPELT = '/api/v4/application/appearence';
const SERVED = '/api/v4/application/appearance';
/** Whether gitbeaker's misspelt path is corrected on the way out (all tests but the first). */
let correcting = false;

/** The texts before this file changed them. */
let original: Record<string, unknown>;

beforeAll(async () => {
  target = await openTarget();
  const misspelt = `${target.config.baseUrl}${MISSPELT}`;
  restoreFetch = validateGlobalFetch(target, {
    rewrite: (url) => (correcting && url.startsWith(misspelt) ? url.replace(MISSPELT, SERVED) : url),
    // The misspelt path is no operation of the spec: its 404 goes around the validation.
    unvalidated: (url) => url.startsWith(misspelt),
  });
  correcting = true;
  const current = (await as('admin').ApplicationAppearance.show()) as Record<string, unknown>;
  correcting = false;
  original = {
    title: current.title,
    description: current.description,
    headerMessage: current.header_message,
    footerMessage: current.footer_message,
    messageBackgroundColor: current.message_background_color,
    messageFontColor: current.message_font_color,
    emailHeaderAndFooterEnabled: current.email_header_and_footer_enabled,
  };
});
afterAll(async () => {
  if (original) {
    correcting = true;
    await as('admin').ApplicationAppearance.edit(original);
  }
  restoreFetch();
  await target?.close();
});

describe('ApplicationAppearance', () => {
  it("gets GitLab's 404 on gitbeaker's misspelt path", async () => {
    correcting = false;
    expect((await refusal(as('admin').ApplicationAppearance.show())).status).toBe(404);
    expect((await refusal(as('admin').ApplicationAppearance.edit({ title: `Never ${RUN}` }))).status).toBe(
      404,
    );
  });

  it('shows the appearance to an administrator, and refuses other users with 403', async () => {
    correcting = true;
    const shown = await as('admin').ApplicationAppearance.show();
    expect(shown).toMatchObject({
      title: expect.any(String),
      message_background_color: expect.stringMatching(/^#/),
      email_header_and_footer_enabled: expect.any(Boolean),
    });
    for (const role of ['owner', 'developer', 'outsider'] as const) {
      expect((await refusal(as(role).ApplicationAppearance.show())).status, role).toBe(403);
      expect((await refusal(as(role).ApplicationAppearance.edit({ title: 'x' }))).status, role).toBe(403);
    }
  });

  it('edits the texts with camelCase options (sent as a JSON body in snake_case)', async () => {
    correcting = true;
    const edited = await as('admin').ApplicationAppearance.edit({
      title: `Gitbeaker ${RUN}`,
      headerMessage: `Header ${RUN}`,
      messageBackgroundColor: '#000000',
      emailHeaderAndFooterEnabled: true,
    });
    expect(edited).toMatchObject({
      title: `Gitbeaker ${RUN}`,
      header_message: `Header ${RUN}`,
      message_background_color: '#000000',
      email_header_and_footer_enabled: true,
    });
    expect(await as('admin').ApplicationAppearance.show()).toMatchObject({ title: `Gitbeaker ${RUN}` });
    // A colour GitLab refuses is refused here too.
    const bad = await refusal(as('admin').ApplicationAppearance.edit({ messageFontColor: 'nope' }));
    expect(bad.status).toBe(400);
  });

  it('uploads a logo (a multipart body with the file part) that the server then serves', async () => {
    correcting = true;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, RUN.length % 256]);
    const edited = await as('admin').ApplicationAppearance.edit({
      logo: { content: new Blob([bytes], { type: 'image/png' }), filename: `gitbeaker-${RUN}.png` },
      title: `With logo ${RUN}`,
    });
    expect(edited.title).toBe(`With logo ${RUN}`);
    expect(edited.logo).toBe(`/uploads/-/system/appearance/logo/1/gitbeaker-${RUN}.png`);
    const served = await originalFetch(`${target.config.baseUrl}${edited.logo}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });
});
