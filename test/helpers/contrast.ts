import type { Frame } from 'playwright-core';

export interface ContrastReading {
  /** What the text says, and the element's class, to find it again. */
  what: string;
  /** WCAG contrast ratio of the text colour on the colour drawn behind it. */
  ratio: number;
}

/**
 * WCAG colour math in the page, as `window.kanbanColour`: written as plain script (the test
 * runner's compiler would wrap functions passed to evaluate in helpers the page does not have),
 * once for every check that reads colours from a page.
 */
const COLOUR_MATH = `window.kanbanColour ??= (() => {
  const rgba = (value) => {
    const parts = (value.match(/[\\d.]+/g) || ['0', '0', '0', '0']).map(Number);
    return [parts[0], parts[1], parts[2], parts[3] ?? 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  return { rgba, over, luminance, contrast };
})()`;

/** The page's colour math: RGBA from a CSS colour, one colour over another, WCAG contrast. */
export interface ColourMath {
  rgba(value: string): number[];
  over(top: number[], bottom: number[]): number[];
  contrast(a: number[], b: number[]): number;
}

export async function installColourMath(frame: Frame): Promise<void> {
  await frame.evaluate(COLOUR_MATH);
}

/**
 * The contrast of each visible text under `selector`, as the reader sees it: the text colour laid
 * over the background colours of its element and every ancestor, from the first opaque one up.
 * Answers the readings lowest first.
 */
export async function textContrasts(frame: Frame, selector: string): Promise<ContrastReading[]> {
  // The test runner's compiler names the helpers below with a `__name` call the page does not have.
  await frame.evaluate('globalThis.__name ??= (f) => f');
  await installColourMath(frame);
  return frame.evaluate((sel) => {
    const { rgba, over, contrast } = (window as unknown as { kanbanColour: ColourMath }).kanbanColour;
    const backdrop = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let node = el; node; node = node.parentElement) {
        const colour = rgba(getComputedStyle(node).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      // Nothing opaque up to the root: the page itself is white, as a browser draws it.
      let drawn = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop()! : [255, 255, 255, 1];
      while (layers.length) drawn = over(layers.pop()!, drawn);
      return drawn;
    };
    return Array.from(document.querySelectorAll<HTMLElement>(sel))
      .filter((el) => el.getClientRects().length > 0 && (el.innerText ?? '').trim() !== '')
      .map((el) => {
        const text = rgba(getComputedStyle(el).color);
        const behind = backdrop(el);
        return {
          what: `"${el.innerText.trim().slice(0, 30)}" (${el.className})`,
          ratio: Math.round(contrast(over(text, behind), behind) * 100) / 100,
        };
      })
      .sort((a, b) => a.ratio - b.ratio);
  }, selector);
}
