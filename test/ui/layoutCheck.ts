import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './uiHelpers';
import { installColourMath, type ColourMath } from '../helpers/contrast';
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
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>('.topbar :is(button, select, .search-box, .connection)'),
    )
      .filter((el) => !el.closest('.search-box') || el.classList.contains('search-box'))
      .filter((el) => el.getBoundingClientRect().width > 0);
    const rows: Array<{ middle: number; names: string[] }> = [];
    for (const el of controls) {
      const rect = el.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      const name = el.classList.contains('search-box')
        ? 'Search'
        : (el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.className);
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
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className} (right ${Math.round(el.getBoundingClientRect().right)} of ${width})`,
      );
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
  await installColourMath(page.mainFrame());
  return page.evaluate(() => {
    const board = document.querySelector('.board') as HTMLElement;
    const probe = document.createElement('span');
    board.append(probe);
    const { over, contrast } = (window as unknown as { kanbanColour: ColourMath }).kanbanColour;
    // Through the page's own colour parser: a variable may hold any CSS colour syntax.
    const rgba = (value: string): number[] => {
      probe.style.color = '';
      probe.style.color = value;
      return (window as unknown as { kanbanColour: ColourMath }).kanbanColour.rgba(getComputedStyle(probe).color);
    };
    const variable = (name: string) => rgba(getComputedStyle(board).getPropertyValue(name).trim());
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
