import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './uiHelpers';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';

/** A still picture: animations and transitions finished, so a resize or a sheet's slide-in is not half way. */
export async function stillScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

/** Rows of the top bar: its controls grouped by their vertical middle. */
export function topBarRows(page: Page): Promise<string[][]> {
  return page.evaluate(() => {
    const controls = Array.from(document.querySelectorAll<HTMLElement>('.topbar :is(button, select, .search-box, .connection)'))
      .filter((el) => !el.closest('.search-box') || el.classList.contains('search-box'))
      .filter((el) => el.getBoundingClientRect().width > 0);
    const rows: Array<{ middle: number; names: string[] }> = [];
    for (const el of controls) {
      const rect = el.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      const name = el.classList.contains('search-box') ? 'Search' : el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.className;
      const row = rows.find((r) => Math.abs(r.middle - middle) < 12);
      if (row) row.names.push(name);
      else rows.push({ middle, names: [name] });
    }
    return rows.sort((a, b) => a.middle - b.middle).map((r) => r.names);
  });
}

/** Elements under `selector` that reach past the window's left or right edge. */
export function offScreen(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll<HTMLElement>(`${sel}, ${sel} *`))
      .filter((el) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 1 && rect.height > 1 && (rect.right > width + 0.5 || rect.left < -0.5);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (right ${Math.round(el.getBoundingClientRect().right)} of ${width})`);
  }, selector);
}

/** How much wider than the room inside it an input's placeholder is, in px (0 or less: it fits). */
export function placeholderOverflow(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(input.placeholder).width - room;
  });
}

export interface BackgroundCheck {
  /** The lowest contrast of the board's text on a column, over each colour of the background. */
  worstTextContrast: number;
  /** The lowest HSL saturation of the background's colours as drawn (shade included): low is grey-brown mud. */
  leastSaturation: number;
}

/**
 * Contrast and colourfulness of the board's background, worked out from its colours: each colour
 * field laid over the base, the theme's shade over that, and a column's surface over all of it.
 */
export async function backgroundCheck(page: Page): Promise<BackgroundCheck> {
  // The test runner's compiler names the helpers below with a `__name` call the page does not have.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(() => {
    const board = document.querySelector('.board') as HTMLElement;
    const probe = document.createElement('span');
    board.append(probe);
    const rgba = (value: string): number[] => {
      probe.style.color = '';
      probe.style.color = value;
      const parts = getComputedStyle(probe).color.match(/[\d.]+/g)!.map(Number);
      return [parts[0], parts[1], parts[2], parts[3] ?? 1];
    };
    const variable = (name: string) => rgba(getComputedStyle(board).getPropertyValue(name).trim());
    const over = (top: number[], bottom: number[]) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
    const luminance = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: number[], b: number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const saturation = (c: number[]) => {
      const max = Math.max(...c.slice(0, 3)) / 255;
      const min = Math.min(...c.slice(0, 3)) / 255;
      const light = (max + min) / 2;
      return max === min ? 0 : (max - min) / (1 - Math.abs(2 * light - 1));
    };
    const base = variable('--bg-base');
    const shade = variable('--kb-bg-shade');
    const fields = ['--bg-1', '--bg-2', '--bg-3'].map((name) => over(shade, over(variable(name), base)));
    const surface = variable('--kb-surface');
    const text = variable('--kb-text');
    probe.remove();
    return {
      worstTextContrast: Math.min(...fields.map((field) => contrast(text, over(surface, field)))),
      leastSaturation: Math.min(...fields.map(saturation)),
    };
  });
}
