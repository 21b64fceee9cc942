// Uploads: the file-name rules, the Markdown of the result and the instance's attachment limit (413).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import { presentUpload, sanitizeFilename } from './uploads.js';

describe('sanitizeFilename', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['a b (1)]!.png', 'a_b__1___.png'],
    ['..', '_..'],
    ['.', '_.'],
    ['dir/', 'unnamed'],
    ['', 'unnamed'],
    ['naïve.txt', 'na_ve.txt'],
  ])('%j becomes %j', (name, safe) => {
    expect(sanitizeFilename(name)).toBe(safe);
  });

  it('keeps the extension of a long name within 255 characters', () => {
    const safe = sanitizeFilename(`${'x'.repeat(300)}.png`);
    expect(safe).toHaveLength(255);
    expect(safe.endsWith('.png')).toBe(true);
  });
});

describe('presentUpload', () => {
  const secret = 'a'.repeat(32);
  it('embeds images, videos and audio with the name without extension as alt text', () => {
    expect(presentUpload('g/p', secret, 'shot.PNG')).toEqual({
      alt: 'shot',
      url: `/uploads/${secret}/shot.PNG`,
      full_path: `/g/p/uploads/${secret}/shot.PNG`,
      markdown: `![shot](/uploads/${secret}/shot.PNG)`,
    });
    expect(presentUpload('g/p', secret, 'clip.mp4').markdown).toBe(`![clip](/uploads/${secret}/clip.mp4)`);
  });

  it('links other files with their whole name', () => {
    expect(presentUpload('g/p', secret, 'notes.txt')).toMatchObject({
      alt: 'notes.txt',
      markdown: `[notes.txt](/uploads/${secret}/notes.txt)`,
    });
    // An SVG can carry scripts: GitLab links it rather than embedding it.
    expect(presentUpload('g/p', secret, 'logo.svg').markdown).toBe(`[logo.svg](/uploads/${secret}/logo.svg)`);
  });
});

describe('the attachment limit', () => {
  let server: AppServer;
  let base: string;

  beforeAll(async () => {
    server = await startAppServer('uploads', {
      instance: { maxAttachmentSizeBytes: 10 },
      fixtures: {
        users: [
          {
            username: 'u',
            name: 'U',
            email: 'u@example.com',
            tokens: [{ name: 't', token: 'u-token', scopes: ['api'] }],
          },
        ],
        groups: [
          { path: 'g', name: 'G', visibility: 'private', members: [{ username: 'u', access_level: 30 }] },
        ],
        projects: [{ namespace: 'g', path: 'p', name: 'P', visibility: 'private', creator: 'u' }],
      },
    });
    base = server.origin;
  });
  afterAll(async () => {
    await server.close();
  });

  async function upload(bytes: number): Promise<{ status: number; body: unknown }> {
    const form = new FormData();
    form.set('file', new Blob(['x'.repeat(bytes)]), 'f.txt');
    const response = await fetch(`${base}/api/v4/projects/g%2Fp/uploads`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'u-token' },
      body: form,
    });
    return { status: response.status, body: await response.json() };
  }

  it('takes a file of the limit and answers 413 above it, storing nothing', async () => {
    expect((await upload(10)).status).toBe(201);
    expect(await upload(11)).toEqual({ status: 413, body: { message: '413 Request Entity Too Large' } });
    const projectDirs = await readdir(join(server.dataDir, 'uploads'));
    expect(projectDirs).toHaveLength(1);
    expect(await readdir(join(server.dataDir, 'uploads', projectDirs[0] ?? ''))).toHaveLength(1);
  });
});
