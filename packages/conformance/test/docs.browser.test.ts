// The rendered reference docs, opened in a real browser: every tag and a sample of operations are on the page.
import { readFileSync } from 'node:fs';
import { bundledSpecJsonPath } from '@collab/spec';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, ensureChromium } from '../src/chromium.js';
import { openTarget, type Target } from '../src/index.js';

interface SpecDocument {
  tags: { name: string }[];
  paths: Record<string, Record<string, { summary?: string; operationId?: string; tags?: string[] }>>;
}

const spec = JSON.parse(readFileSync(bundledSpecJsonPath, 'utf8')) as SpecDocument;
const operations = Object.values(spec.paths).flatMap((item) =>
  Object.values(item).filter(
    (operation) => typeof operation?.summary === 'string' && Array.isArray(operation.tags),
  ),
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
  it('renders every tag and a sample of operations', async () => {
    const page = await browser.newPage();
    const failedOwnRequests: string[] = [];
    const pageErrors: string[] = [];
    // Only the page's own resources count: the "API docs by" badge links an image on the internet.
    page.on('requestfailed', (request) => {
      if (request.url().startsWith(target.config.baseUrl)) failedOwnRequests.push(request.url());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${target.config.baseUrl}/docs`, { waitUntil: 'load' });
    // The search box says "Loading..." until the page's script has taken over the prerendered HTML.
    await expect
      .poll(async () => (await page.locator('.menu-content').textContent()) ?? '', { timeout: 30_000 })
      .not.toContain('Loading...');
    const menu = page.locator('.menu-content');
    const menuItem = (text: string) =>
      menu.locator('[data-testid="menu-item-label"]', { hasText: text }).first();
    // A tag's label is its name alone: matched whole, since one tag's name may be part of another's
    // ("Snippets" of "Project snippets"). An operation's label also carries its method.
    const tagItem = (name: string) =>
      menu
        .locator('[data-testid="menu-item-label"]', {
          hasText: new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
        })
        .first();
    // textContent, not innerText: it does not depend on what is scrolled into view.
    const menuText = (await menu.textContent()) ?? '';
    for (const tag of spec.tags) expect(menuText).toContain(tag.name);

    // Every 25th operation, so the sample spans both documents: open its tag, then the operation itself,
    // and its section must render with its summary as the heading.
    const sample = operations.filter((_, index) => index % 25 === 0);
    expect(sample.length).toBeGreaterThanOrEqual(8);
    for (const operation of sample) {
      const summary = operation.summary ?? '';
      await tagItem(operation.tags?.[0] ?? '').click();
      await expect.poll(async () => menuItem(summary).isVisible(), { timeout: 10_000 }).toBe(true);
      await menuItem(summary).click();
      await expect
        .poll(async () => page.getByRole('heading', { name: summary }).first().isVisible(), {
          timeout: 10_000,
        })
        .toBe(true);
    }
    expect(await page.title()).toContain('Collab API');
    expect(failedOwnRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 120_000);
});
