import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';

/**
 * Chromium's memory with the board open: the resident set (VmRSS from /proc) of the busiest
 * renderer process, which is the board page's (the bench has one page open), and of every Chromium
 * process together; and the page's JavaScript heap in use (CDP Performance.getMetrics). Linux only:
 * elsewhere the RSS figures are 0.
 */
export interface UiMemory {
  rendererMb: number;
  allProcessesMb: number;
  jsHeapMb: number;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export async function measureUiMemory(browser: Browser, page: Page): Promise<UiMemory> {
  const browserSession = await browser.newBrowserCDPSession();
  const { processInfo } = (await browserSession.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number }[];
  };
  await browserSession.detach();
  const sizes = await Promise.all(processInfo.map(async (p) => ({ type: p.type, mb: await rssMb(p.id) })));
  const pageSession = await page.context().newCDPSession(page);
  await pageSession.send('Performance.enable');
  const { metrics } = (await pageSession.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  await pageSession.detach();
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return {
    rendererMb: Math.max(0, ...sizes.filter((s) => s.type === 'renderer').map((s) => s.mb)),
    allProcessesMb: sizes.reduce((sum, s) => sum + s.mb, 0),
    jsHeapMb: heap / 1024 / 1024,
  };
}
