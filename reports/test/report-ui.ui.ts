/**
 * The HTML report in a real browser (Debian's Chromium): it renders from disk without
 * console errors or network requests, hostile strings stay inert, the matrix filters and
 * search work, failure evidence expands, and a screenshot is kept under test-results/.
 * Run with `npm run test:report-ui`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { writeReports } from '../write.js';
import { fixtureReport } from './fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const HOSTILE = `</script><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const KEY = 'cpk_uiPlantedKeyZZZZZZZZZZZZZZZZ';

test.describe('the HTML report in a real browser', () => {
  test.skip(!existsSync(CHROMIUM), `Debian's chromium is not installed at ${CHROMIUM}`);
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  test.afterAll(async () => {
    await browser?.close();
  });

  /** Opens the fixture report from disk, recording console errors, dialogs and requests. */
  async function open(dir: string): Promise<{ page: Page; errors: string[]; requests: string[]; dialogs: string[] }> {
    writeReports(fixtureReport({ hostile: HOSTILE, plantedKey: KEY }), dir);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    const url = pathToFileURL(join(dir, 'report.html')).href;
    await page.goto(url);
    return { page, errors, requests: requests.filter((r) => r !== url), dialogs };
  }

  const visibleRows = (page: Page) => page.locator('tr.rule:visible');

  // Playwright needs the fixtures argument destructured, even when no fixture is used.
  // eslint-disable-next-line no-empty-pattern
  test('renders cleanly, filters and search work, evidence expands', async ({}, testInfo) => {
    const { page, errors, requests, dialogs } = await open(testInfo.outputPath('report'));
    await expect(page.locator('#result')).toHaveText('NOT CONFORMANT (INCOMPLETE RUN)');
    await expect(page.locator('#incomplete')).toContainText('interrupted by SIGINT');
    await expect(page.locator('tr.rule')).toHaveCount(10);
    await expect(page.locator('#f-count')).toHaveText('10 of 10 rules');

    // Filters by verdict, surface and level, alone and together.
    await page.selectOption('#f-verdict', 'fail');
    await expect(visibleRows(page)).toHaveCount(3);
    await expect(page.locator('#f-count')).toHaveText('3 of 10 rules');
    await page.selectOption('#f-surface', 'rest-v2');
    await expect(visibleRows(page)).toHaveCount(2);
    await page.click('#f-reset');
    await page.selectOption('#f-level', 'OBSERVED');
    await expect(visibleRows(page)).toHaveCount(2);
    await page.click('#f-reset');

    // Search matches ids, words and test titles, case-insensitively.
    await page.fill('#f-search', 'deletetemplate');
    await expect(visibleRows(page)).toHaveCount(1);
    await expect(visibleRows(page).first()).toHaveAttribute('id', 'rule-GQL.TEMPLATE.DELETE_BY_NAME');
    await page.fill('#f-search', 'a missing key gets 401');
    await expect(visibleRows(page)).toHaveCount(2);
    await page.fill('#f-search', 'no such words anywhere');
    await expect(visibleRows(page)).toHaveCount(0);
    await page.click('#f-reset');

    // A count in the totals table filters the matrix.
    await page.locator('#totals-level tr', { hasText: 'MUST' }).locator('[data-filter*="fail"]').click();
    await expect(page.locator('#f-verdict')).toHaveValue('fail');
    await expect(visibleRows(page)).toHaveCount(3);
    await page.click('#f-reset');

    // Failure evidence: collapsed, then expanded with the request, the response and the curl line.
    const row = page.locator('tr[id="rule-AUTH.REST_V2.MISSING_401"]');
    const evidence = row.locator('details.failure');
    await expect(evidence.locator('pre.curl')).toBeHidden();
    await evidence.locator('summary').first().click();
    await expect(evidence.locator('pre.curl')).toBeVisible();
    await expect(evidence.locator('pre.curl')).toContainText("curl -sS -i -X POST 'http://127.0.0.1:4010/v2/pods?api_key=[REDACTED]'");
    await expect(evidence.locator('pre.failure-msg').first()).toContainText('expected 401, got 200');
    await page.click('#f-collapse');
    await expect(evidence).not.toHaveAttribute('open', '');
    await page.click('#f-expand');
    await expect(evidence.locator('pre.curl')).toBeVisible();

    // Hostile strings are text: no injected element, handler or script ran.
    await expect(page.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(row).toContainText('</script><img src=x onerror=');
    expect(await page.content()).not.toContain(KEY);

    // Other sections are there: observed, property counterexample, load charts, gaps.
    await expect(page.locator('#observed')).toContainText('POD.CREATE.GPU_AND_CPU_STATUS');
    await expect(page.locator('#property pre.counterexample')).toContainText('"image":"x"');
    await expect(page.locator('#property pre.replay')).toContainText('CPC_SEED=1234');
    await expect(page.locator('#load svg.chart')).toHaveCount(3);
    await expect(page.locator('#untested')).toContainText('SECRET.DELETE.BY_ID');

    const shot = testInfo.outputPath('report.png');
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach('report', { path: shot, contentType: 'image/png' });
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
