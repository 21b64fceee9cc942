// Serves the rendered reference docs at /docs and the bundled spec at /openapi.json and /openapi.yaml.
// The page routes by the URL's hash (/docs#/branches/getbranch), which the browser keeps across a reload and
// never sends; a path below /docs (/docs/branches/getbranch, typed or from an older link) is redirected to
// the same place as a hash link rather than answered 404.
import { existsSync } from 'node:fs';
import { docsHtmlPath } from '@collab/docs';
import { bundledSpecJsonPath, bundledSpecYamlPath } from '@collab/spec';
import { Router } from 'express';

export function docsRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => res.redirect('/docs'));
  router.get(['/docs', '/docs/'], (_req, res) => {
    if (!existsSync(docsHtmlPath)) {
      res.status(404).json({ message: '404 Docs Not Found: run the build (pnpm build) first' });
      return;
    }
    res.type('html').sendFile(docsHtmlPath);
  });
  router.get('/docs/*route', (req, res) => {
    // Redoc's routes are lower case.
    const route = (req.params as { route: string[] }).route.map(encodeURIComponent).join('/').toLowerCase();
    res.redirect(302, `/docs#/${route}`);
  });
  router.get('/openapi.json', (_req, res) => res.type('application/json').sendFile(bundledSpecJsonPath));
  router.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(bundledSpecYamlPath));
  return router;
}
