import { useLayoutEffect, useState } from 'preact/hooks';

/** Scroll position and height of a scroll box (the table's, a long column's), followed as it scrolls and resizes. */
export function useViewport(box: HTMLDivElement | null): { scrollTop: number; height: number } {
  const [view, setView] = useState({ scrollTop: 0, height: 800 });
  useLayoutEffect(() => {
    if (!box) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) =>
        v.scrollTop === box.scrollTop && v.height === box.clientHeight
          ? v
          : { scrollTop: box.scrollTop, height: box.clientHeight },
      );
    };
    const soon = () => (frame ||= requestAnimationFrame(read));
    read();
    box.addEventListener('scroll', soon, { passive: true });
    const resize = new ResizeObserver(soon);
    resize.observe(box);
    return () => {
      box.removeEventListener('scroll', soon);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [box]);
  return view;
}
