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
import { writeFileSync } from 'node:fs';
import { writeReports } from '../write.js';
import { buildHistory } from '../history/model.js';
import { renderHistory } from '../render/history-html.js';
import { fixtureReport } from './fixture.js';
import { FLIPS, NIGHTS, STARTS_FAILING, nights } from './history-fixture.js';

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

  /** What a reader at this viewport cannot see without scrolling sideways: the page's overflow, in pixels. */
  const sideways = (page: Page) => page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

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
  // Long words a target controls (an unbroken URL, a JSON body, an observed value) must wrap,
  // never push the verdict off the page.
  const LONG = `https://api.example.test/${'v2/pods/'.repeat(30)}?filter=${'x'.repeat(300)} {"detail":"${'y'.repeat(400)}"}`;

  // eslint-disable-next-line no-empty-pattern
  test('at 1280 × 800 the verdict of every failing rule is on screen and nothing scrolls sideways', async ({}, testInfo) => {
    const dir = testInfo.outputPath('wide');
    writeReports(fixtureReport({ hostile: LONG, complete: true }), dir);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    // The verdict is the column after the rule id.
    await expect(page.locator('table.matrix thead th')).toHaveText(['Rule', 'Verdict', 'Statement', 'Tests']);
    const failing = page.locator('tr.rule[data-verdict="fail"]');
    await expect(failing).toHaveCount(3);
    for (const row of await failing.all()) {
      const box = (await row.locator('td.verdict .v').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      // The first line of evidence shows without a click; the rest stays folded.
      await expect(row.locator('.first-evidence')).toBeVisible();
      await expect(row.locator('.first-evidence .msg')).toHaveText(/\S/);
      await expect(row.locator('details.failure pre.curl').first()).toBeHidden();
    }
    await expect(page.locator('tr[id="rule-AUTH.REST_V2.MISSING_401"] .first-evidence .msg')).toContainText('[AUTH.REST_V2.MISSING_401] expected 401, got 200');
    // Observed values fold behind a one-line summary.
    const observed = page.locator('tr[id="rule-POD.CREATE.GPU_AND_CPU_STATUS"] details.observed');
    await expect(observed.locator('pre').first()).toBeHidden();
    await expect(observed.locator('summary')).toContainText('observed');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // Expanded evidence still wraps inside the page.
    await page.click('#f-expand');
    await expect(failing.first().locator('pre.curl').first()).toBeVisible();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.click('#f-collapse');
    await failing.first().scrollIntoViewIfNeeded();
    const shot = testInfo.outputPath('report-1280.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('report at 1280 × 800', { path: shot, contentType: 'image/png' });
    await page.close();
  });

  // eslint-disable-next-line no-empty-pattern
  test('the history page: strips, the change night, the unstable mark and charts, without sideways scrolling', async ({}, testInfo) => {
    const file = testInfo.outputPath('history.html');
    const reports = nights();
    writeFileSync(file, renderHistory(buildHistory(reports.map((report, i) => ({ file: `night-${i}.json`, report })))));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    const flips = page.locator(`tr[id="h-${FLIPS}"]`);
    await expect(flips.locator('.strip .c')).toHaveCount(NIGHTS);
    await expect(flips.locator('.badge.unstable')).toBeVisible();
    await expect(page.locator(`tr[id="h-${STARTS_FAILING}"] .strip .c.chg`)).toHaveCount(1);
    await expect(page.locator('#since-failures')).toContainText(FLIPS);
    await expect(page.locator('#load svg.chart').first()).toBeVisible();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // The strips shrink to fit: a year of nights still fits the page.
    const year = Array.from({ length: 365 }, (_, i) => ({ file: `n${i}.json`, report: { ...reports[i % NIGHTS]!, run: { ...reports[i % NIGHTS]!.run, startedAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString() } } }));
    const yearFile = testInfo.outputPath('year.html');
    writeFileSync(yearFile, renderHistory(buildHistory(year)));
    await page.goto(pathToFileURL(yearFile).href);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.goto(pathToFileURL(file).href);
    const shot = testInfo.outputPath('history-1280.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('history at 1280 × 800', { path: shot, contentType: 'image/png' });
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await page.close();
  });
});
