// Serves the rendered reference docs at /docs and the bundled spec at /openapi.json and /openapi.yaml.
// The page routes by the URL's hash (/docs#/branches/getbranch), which the browser keeps across a reload and
// never sends; a path below /docs (/docs/branches/getbranch, typed or from an older link) is redirected to
// the same place as a hash link rather than answered 404.
//
// The three files are megabytes of text: each is read and compressed (br and gzip) once, on its first request
// (again only when the file changes), and answered with an ETag and Last-Modified so that a reader's browser
// revalidates with a 304 instead of downloading it again.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { docsHtmlPath } from '@collab/docs';
import { bundledSpecJsonPath, bundledSpecYamlPath } from '@collab/spec';
import { type Request, type Response, Router } from 'express';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

type Encoding = 'br' | 'gzip' | 'identity';

interface Representations {
  mtimeMs: number;
  lastModified: string;
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

/** A static file's bodies per content encoding, made once per version of the file. */
export class CompressedFile {
  private current: Promise<Representations> | undefined;
  private mtimeMs = -1;

  constructor(readonly path: string) {}

  async representations(): Promise<Representations> {
    const { mtimeMs } = await stat(this.path);
    if (!this.current || mtimeMs !== this.mtimeMs) {
      this.mtimeMs = mtimeMs;
      this.current = compress(this.path, mtimeMs);
      // A failed read is tried again on the next request.
      this.current.catch(() => {
        this.current = undefined;
      });
    }
    return this.current;
  }
}

async function compress(path: string, mtimeMs: number): Promise<Representations> {
  const identity = await readFile(path);
  const [br, gzipped] = await Promise.all([
    // Quality 5 of 11: a fifth of the page's size, at a small fraction of the time the best quality takes.
    brotliAsync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(identity),
  ]);
  return {
    mtimeMs,
    lastModified: new Date(mtimeMs).toUTCString(),
    etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
    bodies: { br, gzip: gzipped, identity },
  };
}

/** Answers `file` as `type`, in the best encoding the request accepts, or 304 when the client's copy is fresh. */
async function sendCompressed(
  req: Request,
  res: Response,
  file: CompressedFile,
  type: string,
): Promise<void> {
  const { etag, lastModified, bodies } = await file.representations();
  // br when the client takes it (the smallest), else gzip, else the file as it is.
  const encoding: Encoding = req.acceptsEncodings('br')
    ? 'br'
    : req.acceptsEncodings('gzip')
      ? 'gzip'
      : 'identity';
  res.vary('Accept-Encoding');
  res.type(type);
  // One ETag per encoding: the bodies differ byte for byte.
  res.setHeader('ETag', `"${etag}${encoding === 'identity' ? '' : `-${encoding}`}"`);
  res.setHeader('Last-Modified', lastModified);
  res.setHeader('Cache-Control', 'no-cache');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', bodies[encoding].length);
  res.end(req.method === 'HEAD' ? undefined : bodies[encoding]);
}

export function docsRouter(): Router {
  const router = Router();
  const page = new CompressedFile(docsHtmlPath);
  const specJson = new CompressedFile(bundledSpecJsonPath);
  const specYaml = new CompressedFile(bundledSpecYamlPath);
  router.get('/', (_req, res) => res.redirect('/docs'));
  router.get(['/docs', '/docs/'], async (req, res) => {
    try {
      await sendCompressed(req, res, page, 'html');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      res.status(404).json({ message: '404 Docs Not Found: run the build (pnpm build) first' });
    }
  });
  router.get('/docs/*route', (req, res) => {
    // Redoc's routes are lower case.
    const route = (req.params as { route: string[] }).route.map(encodeURIComponent).join('/').toLowerCase();
    res.redirect(302, `/docs#/${route}`);
  });
  router.get('/openapi.json', (req, res) => sendCompressed(req, res, specJson, 'application/json'));
  router.get('/openapi.yaml', (req, res) => sendCompressed(req, res, specYaml, 'application/yaml'));
  return router;
}
