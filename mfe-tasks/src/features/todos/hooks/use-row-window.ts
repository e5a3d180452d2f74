import { defaultRangeExtractor, useWindowVirtualizer, windowScroll, type Range, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * A row's height before any row is measured (one line of title beside the 44 px action buttons, with padding
 * and border, as Chromium draws it), and the gap between rows (the list's 0.5rem). Rows are measured once
 * they render (long titles wrap, on small screens most); from then on a row not measured yet is estimated at
 * the mean height of those measured (see `RowHeights`).
 */
const ROW_ESTIMATE_PX = 62;
const ROW_GAP_PX = 8;
/** Rows rendered beyond each edge of the window, so Tab and a quick scroll find rows already there. */
const ROW_OVERSCAN = 8;

/** Where the list starts in the document: the window's scroll position at which its first row is at the top. */
function useDocumentOffset(element: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  const measure = useCallback(() => {
    const node = element.current;
    if (!node) return;
    const next = node.getBoundingClientRect().top + window.scrollY;
    setOffset((current) => (Math.abs(current - next) < 0.5 ? current : next));
  }, [element]);
  // Whatever sits above the list (the greeting, a message under the input) may change its height: the body
  // grows or shrinks with it.
  useLayoutEffect(() => {
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [measure]);
  return offset;
}

/**
 * The heights measured so far, for the estimate of the rows not measured yet: their mean. A row that comes
 * into view is then usually placed at its height already, and its first measurement moves nothing (no
 * second render of the window, docs/PERFORMANCE.md "Smooth on a phone").
 */
class RowHeights {
  private total = 0;
  private count = 0;

  add(height: number): number {
    this.total += height;
    this.count += 1;
    return height;
  }

  estimate(): number {
    return this.count === 0 ? ROW_ESTIMATE_PX : Math.round(this.total / this.count);
  }
}

/**
 * A row's height: from its ResizeObserver entry when there is one (read after layout, no work), else the
 * height it was measured at before (a row scrolled back into view: no layout is forced to read it again,
 * docs/PERFORMANCE.md "Smooth on a phone"), else read from the element, or the estimate where there is no
 * layout (a hidden page, a test DOM).
 */
function measureRow(heights: RowHeights, element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box && box.blockSize > 0) return heights.add(box.blockSize);
  if (!entry) {
    const cached = instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element)));
    if (cached !== undefined) return cached;
  }
  const height = element.getBoundingClientRect().height;
  return height > 0 ? heights.add(height) : heights.estimate();
}

/** Scrolls the window, unless it is already there (the window attaches by writing the offset it has). */
const scrollWindow: typeof windowScroll = (offset, options, instance) => {
  if (options.behavior !== 'smooth' && Math.abs(offset + (options.adjustments ?? 0) - window.scrollY) < 1) return;
  windowScroll(offset, options, instance);
};

/**
 * The same array of ids for as long as the ids and their order stay the same: a tick changes a task, not the
 * list's order, and the window then keeps its 10 000 measured positions instead of laying them out again.
 */
function useStableKeys(keys: readonly string[]): readonly string[] {
  const [stable, setStable] = useState(keys);
  if (keys === stable) return stable;
  if (keys.length === stable.length && keys.every((key, index) => key === stable[index])) return stable;
  setStable(keys);
  return keys;
}

interface RowWindow {
  virtualizer: Virtualizer<Window, Element>;
  /** The rows to render: the window (plus overscan) and the kept row, in list order. */
  items: VirtualItem[];
  /** The list's full height, every row counted, so the page scrolls as if every row were there. */
  totalSize: number;
  /** Where the list starts in the document (item `start`s include it). */
  offset: number;
}

/**
 * Windowing of the task list over the page's own scroll (docs/PRODUCT.md §10.5.1): only the rows on screen, plus a margin,
 * are in the DOM; the list element keeps the height of all of them. `keepIndex` (the row holding the focus)
 * stays rendered wherever the window is, so scrolling never takes the focus away.
 */
export function useRowWindow(listRef: RefObject<HTMLElement | null>, ids: readonly string[], keepIndex: number): RowWindow {
  const offset = useDocumentOffset(listRef);
  const [heights] = useState(() => new RowHeights());
  const measureElement = useCallback(
    (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, Element>) => measureRow(heights, element, entry, instance),
    [heights],
  );
  const estimateSize = useCallback(() => heights.estimate(), [heights]);
  const keys = useStableKeys(ids);
  const getItemKey = useCallback((index: number) => keys[index] ?? index, [keys]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (keepIndex < 0 || keepIndex >= range.count || indexes.includes(keepIndex)) return indexes;
      return [...indexes, keepIndex].sort((a, b) => a - b);
    },
    [keepIndex],
  );
  const virtualizer = useWindowVirtualizer({
    count: keys.length,
    estimateSize,
    gap: ROW_GAP_PX,
    overscan: ROW_OVERSCAN,
    scrollMargin: offset,
    getItemKey,
    rangeExtractor,
    measureElement,
    scrollToFn: scrollWindow,
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
    // Scroll updates are ordinary React updates: flushSync from inside React's own commit only warns.
    useFlushSync: false,
  });
  return { virtualizer, items: virtualizer.getVirtualItems(), totalSize: virtualizer.getTotalSize(), offset };
}
