// The instance appearance (document 2, section 4.14): administrators only; every text setting as JSON, form
// and multipart; the images as multipart file parts, answered as URLs the server serves with their bytes and
// content type; a favicon other than .ico/.png, an image over 1 MB, an image given as text and a colour that
// is not hex refused with 400.
//
// On a shared server the texts this file changes are put back at the end. The images cannot be (GitLab's API
// has no way to remove one): they stay set to this run's files, which is what any later run expects anyway.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

const PATH = '/application/appearance';

type Appearance = components['schemas']['Appearance'];
type ErrorBody = components['schemas']['Error'];

const TEXT_FIELDS = [
  'title',
  'description',
  'new_project_guidelines',
  'profile_image_guidelines',
  'header_message',
  'footer_message',
  'message_background_color',
  'message_font_color',
  'email_header_and_footer_enabled',
] as const;
type TextSettings = Pick<Appearance, (typeof TEXT_FIELDS)[number]>;

let target: Target;
/** The settings before this file changed them, put back at the end. */
let original: TextSettings;

const textsOf = (appearance: Appearance): TextSettings =>
  Object.fromEntries(TEXT_FIELDS.map((name) => [name, appearance[name]])) as TextSettings;

beforeAll(async () => {
  target = await openTarget();
  const { status, body } = await callAs<Appearance>(target, 'admin', PATH);
  expect(status).toBe(200);
  original = textsOf(body);
});
afterAll(async () => {
  if (original) {
    const { status } = await callAs(target, 'admin', PATH, { method: 'PUT', json: { ...original } });
    expect(status).toBe(200);
  }
  await target.close();
});

/** A PNG image's first bytes (enough for the content checks) followed by `size` bytes of filler. */
function png(size = 16): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(8 + size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes.length; i++) bytes[i] = i % 251;
  return bytes;
}
/** An icon's ICONDIR header (one image) and some bytes. */
const ICO = new Uint8Array([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 7, RUN.length % 256]);

function form(
  fields: Record<string, string | { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }>,
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new Blob([value.bytes], { type: value.type }), value.name);
  }
  return data;
}

const put = (
  caller: Caller,
  body: { json?: Record<string, unknown>; multipart?: FormData; form?: Record<string, string> },
) =>
  callAs<Appearance & ErrorBody>(target, caller, PATH, {
    method: 'PUT',
    ...body,
  });

/** The served file of an image URL (relative to the server's root, as GitLab answers it). */
async function served(url: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  expect(url.startsWith('/uploads/-/system/appearance/')).toBe(true);
  // Anyone reads them: no token.
  const response = await fetch(`${target.config.baseUrl}${url}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

describe('who may read and change the appearance', () => {
  const others: Role[] = ['owner', 'maintainer', 'developer', 'reporter', 'guest', 'outsider'];

  it('answers 401 without a valid token, for reads and writes', async () => {
    for (const caller of ['anonymous', 'invalid'] as const) {
      expect((await callAs(target, caller, PATH)).status).toBe(401);
      expect((await put(caller, { json: { title: `Nobody ${RUN}` } })).status).toBe(401);
    }
  });

  it('answers 403 to every user who is not an administrator, and changes nothing', async () => {
    for (const role of others) {
      const read = await callAs(target, role, PATH);
      expect(read.status, role).toBe(403);
      expect(read.body).toEqual({ message: '403 Forbidden' });
      expect((await put(role, { json: { title: `Not ${role} ${RUN}` } })).status, role).toBe(403);
    }
    const { body } = await callAs<Appearance>(target, 'admin', PATH);
    expect(body.title).not.toContain(RUN);
  });

  it('reads the settings as an administrator', async () => {
    const { status, body } = await callAs<Appearance>(target, 'admin', PATH);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([...TEXT_FIELDS, 'logo', 'header_logo', 'favicon'].sort());
  });
});

describe('PUT /application/appearance with texts', () => {
  it('changes every text setting from a JSON body and keeps them', async () => {
    const wanted: TextSettings = {
      title: `Collab ${RUN}`,
      description: `Sign in to **Collab** ${RUN}`,
      new_project_guidelines: 'Read CONTRIBUTING.md first.',
      profile_image_guidelines: 'Square, at least 200 pixels.',
      header_message: `Maintenance ${RUN}`,
      footer_message: 'Thanks for visiting',
      message_background_color: '#123456',
      message_font_color: '#fff',
      email_header_and_footer_enabled: true,
    };
    const { status, body } = await put('admin', { json: { ...wanted } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(textsOf(body)).toEqual(wanted);
    expect(textsOf((await callAs<Appearance>(target, 'admin', PATH)).body)).toEqual(wanted);
  });

  it('changes only what is given; a JSON null is "not given"', async () => {
    const before = (await callAs<Appearance>(target, 'admin', PATH)).body;
    const { status, body } = await put('admin', { json: { footer_message: `Footer ${RUN}`, title: null } });
    expect(status).toBe(200);
    expect(body).toEqual({ ...before, footer_message: `Footer ${RUN}` });
  });

  it('takes a URL-encoded form, booleans in Grape spellings and empty texts', async () => {
    const { status, body } = await put('admin', {
      form: {
        header_message: '',
        email_header_and_footer_enabled: 'no',
        message_background_color: '#ABCDEF',
      },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      header_message: '',
      email_header_and_footer_enabled: false,
      message_background_color: '#ABCDEF',
    });
  });

  it('refuses a colour that is not #RGB or #RRGGBB with 400 naming it, and keeps the old one', async () => {
    for (const color of ['red', '#12345', '123456', '#GGGGGG']) {
      const answer = await put('admin', { json: { message_font_color: color } });
      expect(answer.status, color).toBe(400);
      expect(JSON.stringify(answer.body)).toContain('message_font_color');
    }
    expect((await callAs<Appearance>(target, 'admin', PATH)).body.message_font_color).toBe('#fff');
  });
});

describe('PUT /application/appearance with images', () => {
  it('stores the logo, header logo and favicon of a multipart body and serves them at the URLs it answers', async () => {
    const logo = png(64);
    const headerLogo = png(32);
    const { status, body } = await put('admin', {
      multipart: form({
        title: `With images ${RUN}`,
        email_header_and_footer_enabled: 'true',
        logo: { bytes: logo, name: `logo ${RUN}.png`, type: 'image/png' },
        header_logo: { bytes: headerLogo, name: 'header.png', type: 'image/png' },
        favicon: { bytes: ICO, name: 'favicon.ico', type: 'image/x-icon' },
      }),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.title).toBe(`With images ${RUN}`);
    expect(body.email_header_and_footer_enabled).toBe(true);
    // GitLab's path, with the client's name made safe.
    expect(body.logo).toBe(`/uploads/-/system/appearance/logo/1/logo_${RUN}.png`);
    expect(body.header_logo).toBe('/uploads/-/system/appearance/header_logo/1/header.png');
    expect(body.favicon).toBe('/uploads/-/system/appearance/favicon/1/favicon.ico');

    const servedLogo = await served(body.logo ?? '');
    expect(servedLogo.status).toBe(200);
    expect(servedLogo.type).toBe('image/png');
    expect(servedLogo.bytes).toEqual(logo);
    expect((await served(body.header_logo ?? '')).bytes).toEqual(headerLogo);
    const servedIcon = await served(body.favicon ?? '');
    expect(servedIcon.status).toBe(200);
    expect(['image/x-icon', 'image/vnd.microsoft.icon']).toContain(servedIcon.type);
    expect(servedIcon.bytes).toEqual(ICO);

    // The read gives the same URLs.
    expect((await callAs<Appearance>(target, 'admin', PATH)).body).toMatchObject({
      logo: body.logo,
      header_logo: body.header_logo,
      favicon: body.favicon,
    });
  });

  it('replaces an image: the new one is served, the old URL is gone', async () => {
    const first = await put('admin', {
      multipart: form({ favicon: { bytes: png(), name: `first-${RUN}.png`, type: 'image/png' } }),
    });
    expect(first.status).toBe(200);
    const icon = png(40);
    const second = await put('admin', {
      multipart: form({ favicon: { bytes: icon, name: `second-${RUN}.png`, type: 'image/png' } }),
    });
    expect(second.status).toBe(200);
    expect(second.body.favicon).toBe(`/uploads/-/system/appearance/favicon/1/second-${RUN}.png`);
    expect((await served(second.body.favicon ?? '')).bytes).toEqual(icon);
    expect((await served(first.body.favicon ?? '')).status).toBe(404);
    // A text-only change keeps the images.
    const texts = await put('admin', { json: { header_message: `Kept ${RUN}` } });
    expect(texts.body.favicon).toBe(second.body.favicon);
  });

  it('refuses a favicon that is not .ico or .png, or not an ICO or PNG image, with 400 naming it', async () => {
    const before = (await callAs<Appearance>(target, 'admin', PATH)).body;
    const cases = [
      { bytes: new TextEncoder().encode('hello'), name: 'favicon.txt', type: 'text/plain' },
      { bytes: png(), name: 'favicon.gif', type: 'image/gif' },
      { bytes: new TextEncoder().encode('not an image'), name: 'favicon.png', type: 'image/png' },
    ];
    for (const favicon of cases) {
      const answer = await put('admin', { multipart: form({ title: `Refused ${RUN}`, favicon }) });
      expect(answer.status, favicon.name).toBe(400);
      expect(Object.keys((answer.body.message ?? {}) as object)).toEqual(['favicon']);
    }
    expect((await callAs<Appearance>(target, 'admin', PATH)).body).toEqual(before);
  });

  it('refuses an image over 1 MB with 400 naming it', async () => {
    const answer = await put('admin', {
      multipart: form({ logo: { bytes: png(1024 * 1024), name: 'big.png', type: 'image/png' } }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toEqual({ logo: ['is too big (should be at most 1 MB)'] });
  });

  it('refuses an image given as text, in JSON and as a multipart text part', async () => {
    const json = await put('admin', { json: { logo: 'https://example.com/logo.png' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'logo is invalid' });
    const text = await put('admin', { multipart: form({ favicon: 'favicon.ico' }) });
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ error: 'favicon is invalid' });
  });

  it('answers 404 for an image that is not the current one, or of an unknown field', async () => {
    const base = target.config.baseUrl;
    expect((await fetch(`${base}/uploads/-/system/appearance/logo/1/never-${RUN}.png`)).status).toBe(404);
    expect((await fetch(`${base}/uploads/-/system/appearance/avatar/1/logo.png`)).status).toBe(404);
    expect((await fetch(`${base}/uploads/-/system/appearance/logo/2/logo.png`)).status).toBe(404);
  });
});
