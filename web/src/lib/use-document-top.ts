import { useLayoutEffect, useState, type RefObject } from "react";

/**
 * The distance (px) from the top of the document to the element, kept current when the window or
 * anything above it (a notice banner) changes size: the screen sizes itself to the window's height
 * below it (`height: calc(100dvh - top - bottom padding)`), so the page itself never scrolls and only
 * the screen's own panes (a message list, a canvas) do.
 */
export function useDocumentTop(ref: RefObject<HTMLElement | null>): number | null {
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    window.addEventListener("resize", update);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", update);
    };
  }, [ref]);
  return top;
}
