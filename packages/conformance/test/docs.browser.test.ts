// The rendered reference docs, opened in a real browser: nothing is loaded from another host, the introduction's
// sections lead the menu, every tag and a sample of operations are on the page, operations show their curl and
// @collab/client samples within the sample panel at 1,280 px, and the menu's deep links survive a reload.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledSpecJsonPath } from '@collab/spec';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, ensureChromium } from '../src/chromium.js';
import { openTarget, type Target } from '../src/index.js';

interface SpecDocument {
  tags: { name: string }[];
}

const spec = JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as SpecDocument;
// The spec the page renders: the bundled spec with each operation's sample (built by apps/docs).
interface DocumentedOperation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}
const documented = JSON.parse(
  readFileSync(new URL('../../../apps/docs/dist/openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, DocumentedOperation>> };
const documentedOperations = Object.values(documented.paths).flatMap((item) =>
  Object.values(item).filter((operation) => typeof operation?.operationId === 'string'),
);

let target: Target;
let browser: Browser;

beforeAll(async () => {
  const executablePath = ensureChromium();
  target = await openTarget();
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await target?.close();
});

describe('the docs page in Chromium', () => {
  it('loads nothing from another host, on load and on a search', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${target.config.baseUrl}/docs`, { waitUntil: 'load' });
    await waitForScript(page);
    // The sidebar's search opens a dialog whose results come from the page's own index.
    await page.getByText('Search', { exact: false }).first().click();
    await page.getByPlaceholder('Search docs').fill('protected branch');
    await expect
      .poll(async () => page.getByText('List protected branches').first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    await page.keyboard.press('Enter');
    // Redoc's telemetry is off in the page's options, and nothing it would have batched is sent: its
    // exporter sends a batch every 5 s (with telemetry on, the first left 5 s after the page's script ran).
    expect(await page.content()).toContain('"disableTelemetry":true');
    await page.waitForTimeout(6_000);
    await page.waitForLoadState('networkidle');
    await page.close({ runBeforeUnload: true });
    const origin = new URL(target.config.baseUrl).origin;
    expect(requested.length).toBeGreaterThan(0);
    // data: and blob: URLs are made by the page itself and never leave the browser.
    const elsewhere = requested.filter(
      (url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin,
    );
    expect(elsewhere).toEqual([]);
  }, 120_000);

  it('leads with the introduction: what the API is, getting started and authentication', async () => {
    const page = await openDocs(1280);
    const labels = await page.locator('.menu-content [data-testid="menu-item-label"]').allTextContents();
    expect(labels.slice(0, 4).map((label) => label.trim())).toEqual([
      'Collab API',
      'Getting started',
      'Authentication',
      'Requests and responses',
    ]);
    // The page's text (its scripts, which embed the whole spec, are outside #redoc).
    const text = (await page.locator('#redoc').textContent()) ?? '';
    for (const needed of ['pnpm start', 'PRIVATE-TOKEN', 'private_token', 'Authorization: Bearer', 'Sudo']) {
      expect(text, needed).toContain(needed);
    }
    // The markers of the spec's authors, which the page does not show, are not talked about.
    expect(text).not.toContain('x-source');
    await page.close();
  }, 120_000);

  it('renders every tag and a sample of operations', async () => {
    const page = await browser.newPage();
    const failedRequests: string[] = [];
    const pageErrors: string[] = [];
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${target.config.baseUrl}/docs`, { waitUntil: 'load' });
    await waitForScript(page);
    // textContent, not innerText: it does not depend on what is scrolled into view.
    const menuText = (await page.locator('.menu-content').textContent()) ?? '';
    for (const tag of spec.tags) expect(menuText).toContain(tag.name);

    // Every 25th operation, so the sample spans both documents: opened from the menu as a reader does, its
    // section must render with its summary as the heading, in view, and the menu mark it current.
    const sample = documentedOperations.filter((_, index) => index % 25 === 0);
    expect(sample.length).toBeGreaterThanOrEqual(8);
    for (const operation of sample) {
      await openOperation(page, operation);
      await expectInView(page, operation, new URL(page.url()).hash);
    }
    expect(await page.title()).toContain('Collab API');
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 240_000);

  it('shows the curl and @collab/client samples of operations, within the sample panel at 1,280 px', async () => {
    const page = await openDocs(1280);
    // The operation with the longest sample line, and a random sample of the others.
    const longest = documentedOperations.reduce((widest, operation) =>
      longestLine(operation) > longestLine(widest) ? operation : widest,
    );
    const sample = [longest, ...pickRandom(documentedOperations, 4)];
    let language = 'curl';
    for (const operation of sample) {
      const [curl, client] = operation['x-codeSamples'] ?? [];
      expect(curl?.label, operation.operationId).toBe('curl');
      expect(curl?.source, operation.operationId).toMatch(/^curl /);
      expect(client?.source, operation.operationId).toContain("from '@collab/client'");
      const section = await goToOperation(page, operation);
      // The request's panel: its language menu names the language shown.
      const panel = section
        .locator('[data-testid="right-panel"]', { hasText: /curl|@collab\/client/ })
        .first();
      const code = panel.locator('pre').first();
      for (const shown of [curl, client]) {
        if (!shown) continue;
        if (language !== shown.label) {
          // The language menu is the panel's dropdown named after the language shown; the choice stays.
          await panel.getByRole('button', { name: language, exact: true }).click();
          await page.getByRole('menuitem', { name: shown.label, exact: true }).first().click();
          language = shown.label;
        }
        await expect
          .poll(async () => ((await code.textContent()) ?? '').trim(), { timeout: 30_000 })
          .toBe(shown.source.trim());
        // Every line is readable in the panel: nothing runs past its right edge.
        const overflow = await code.evaluate((element) => element.scrollWidth - element.clientWidth);
        expect(overflow, `${operation.operationId} ${shown.label}`).toBeLessThanOrEqual(0);
      }
    }
    await page.screenshot({ path: join(tmpdir(), 'collab-docs-samples-1280.png') });
    await page.close();
  }, 240_000);

  it('keeps a menu deep link across a reload, with the operation in view', async () => {
    const page = await openDocs();
    // The menu's own links are hash links: a path-style one would leave /docs when copied or reloaded.
    const hrefs = await page
      .locator('.menu-content a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(20);
    expect(hrefs.filter((href) => href.startsWith('/'))).toEqual([]);

    const [operation] = pickRandom(documentedOperations, 1);
    if (!operation) throw new Error('no operations');
    await openOperation(page, operation);
    const deepLink = page.url();
    expect(new URL(deepLink).pathname).toBe('/docs');
    expect(new URL(deepLink).hash).toMatch(new RegExp(`/${operation.operationId.toLowerCase()}$`));

    await page.reload({ waitUntil: 'load' });
    await waitForScript(page);
    expect(page.url()).toBe(deepLink);
    await expectInView(page, operation, new URL(deepLink).hash);

    // The same route as a path below /docs (typed, or from an older link) lands on the same operation.
    await page.goto(`${target.config.baseUrl}/docs/${new URL(deepLink).hash.slice(2)}`, {
      waitUntil: 'load',
    });
    await waitForScript(page);
    expect(page.url()).toBe(deepLink);
    await expectInView(page, operation, new URL(deepLink).hash);
    await page.close();
  }, 240_000);
});

async function openDocs(width = 1600): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  await page.goto(`${target.config.baseUrl}/docs`, { waitUntil: 'load' });
  await waitForScript(page);
  return page;
}

// The search box says "Loading..." until the page's script has taken over the prerendered HTML.
async function waitForScript(page: Page): Promise<void> {
  await expect
    .poll(async () => (await page.locator('.menu-content').textContent()) ?? '', { timeout: 30_000 })
    .not.toContain('Loading...');
}

/** The route of an operation: its tag's route (from the menu) and its operationId, lower case. */
async function routeOf(page: Page, operation: DocumentedOperation): Promise<string> {
  const tag = operation.tags[0] ?? '';
  const tagLink = page.locator('.menu-content a', {
    has: page.locator(`[data-testid="menu-item-label"] [data-text="${tag}"]`),
  });
  return `${await tagLink.first().getAttribute('href')}/${operation.operationId.toLowerCase()}`;
}

/** Opens an operation by its menu link (its tag first, when closed); resolves to the operation's section. */
async function openOperation(page: Page, operation: DocumentedOperation) {
  const route = await routeOf(page, operation);
  const menu = page.locator('.menu-content');
  const link = menu.locator(`a[href="${route}"]`);
  if (!(await link.isVisible())) {
    await menu.locator(`a[href="${route.split('/').slice(0, 2).join('/')}"]`).click();
  }
  await expect.poll(async () => link.isVisible(), { timeout: 30_000 }).toBe(true);
  // A click event on the link itself: in a long tag the sticky tag heading may cover the link's centre.
  await link.scrollIntoViewIfNeeded();
  await link.dispatchEvent('click');
  await expect.poll(() => new URL(page.url()).hash, { timeout: 30_000 }).toBe(route);
  return page.locator(`[id="${route.slice(2)}"]`);
}

/** Opens an operation by its route in the URL's hash, as a link from elsewhere does. */
async function goToOperation(page: Page, operation: DocumentedOperation) {
  const route = await routeOf(page, operation);
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, route);
  return page.locator(`[id="${route.slice(2)}"]`);
}

async function expectInView(page: Page, operation: DocumentedOperation, route: string): Promise<void> {
  const heading = page.locator(`[id="${route.slice(2)}"] h2`).first();
  await expect
    .poll(async () => (await heading.textContent())?.trim(), { timeout: 15_000 })
    .toBe(operation.summary);
  await expect
    .poll(
      async () =>
        heading.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      { timeout: 15_000 },
    )
    .toBe(true);
  // The menu marks it as the current item.
  const item = page.locator(`.menu-content a[href="${route}"] [data-testid="menu-item-label"]`);
  await expect.poll(async () => item.getAttribute('data-active'), { timeout: 30_000 }).toBe('true');
}

function longestLine(operation: DocumentedOperation): number {
  const lines = (operation['x-codeSamples'] ?? []).flatMap((sample) => sample.source.split('\n'));
  return Math.max(0, ...lines.map((line) => line.length));
}

function pickRandom<T>(items: T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) {
    picked.push(...pool.splice(Math.floor(Math.random() * pool.length), 1));
  }
  return picked;
}
