// The browser of the repo's two browser tests (admin/e2e, the built-in admin; examples/admin/e2e, the react-admin
// example): Debian's chromium (browser downloads do not work on our machines; CHROMIUM_PATH moves it), one page,
// and what went wrong in it. Each test passes its own playwright-core's `chromium` (examples/admin has its own
// node_modules), so this file imports nothing.

/** This machine's network is closed: without these, chromium keeps trying to reach Google's services. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Launches chromium and opens a 1280x800 page (15 s for each action) that records what went wrong in it:
 * `browserErrors`, its uncaught errors and console errors; `failedRequests`, each answer of status 400 or more as
 * `<status> <method> <path>` (followed by the first 300 characters of its body with `responseBodies`).
 *
 * @example
 * import { chromium } from 'playwright-core';
 * const { browser, page, browserErrors, failedRequests } = await openBrowser(chromium);
 */
export async function openBrowser(chromium, { responseBodies = false } = {}) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  const browserErrors = [];
  const failedRequests = [];
  page.on('pageerror', (error) => browserErrors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed request is logged by the browser too: those are in failedRequests, checked one by one.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) browserErrors.push(`console error: ${message.text()}`);
  });
  page.on('response', async (response) => {
    if (response.status() < 400) return;
    const request = `${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`;
    failedRequests.push(responseBodies ? `${request} ${(await response.text().catch(() => '')).slice(0, 300)}` : request);
  });
  return { browser, page, browserErrors, failedRequests };
}
