import { useEffect, useLayoutEffect, useRef, type PointerEvent, type RefObject } from 'react';
import { resolveValue, ToastIcon, useToaster, type DefaultToastOptions, type Toast } from 'react-hot-toast';
import './platform.css';

/** The CSS variable that holds how much of the window's bottom the toasts take now (unset when none shows). */
export const TOAST_RESERVE_VAR = '--toast-reserve';

/**
 * PRODUCT §4 "Toasts", §9: 4000 ms for blank, error and custom, 2000 ms for success, loading until dismissed;
 * a dismissed toast is removed after 1000 ms. At most 20 are kept (react-hot-toast's own TOAST_LIMIT).
 */
const TOAST_OPTIONS: DefaultToastOptions = {
  duration: 4000,
  removeDelay: 1000,
  success: { duration: 2000 },
  error: { duration: 4000 },
  loading: { duration: Infinity },
  custom: { duration: 4000 },
  blank: { duration: 4000 },
};

/**
 * How a toast is announced (PRODUCT §10.9): an error interrupts, as an alert; everything else waits its turn,
 * as a status. react-hot-toast gives every toast `role="status"` and `aria-live="polite"` (its `ariaProps`),
 * errors included, and a toast's own ariaProps win over the Toaster's options, so the rule is applied here.
 */
const ALERT: Toast['ariaProps'] = { role: 'alert', 'aria-live': 'assertive' };

function ariaPropsOf(toast: Toast): Toast['ariaProps'] {
  return toast.type === 'error' ? ALERT : toast.ariaProps;
}

/** The control a person used last (pressed or focused), and when: the one a new toast must not cover. */
let lastUsed: Element | undefined;
let usedAt = 0;
/** A control used longer ago than this is not what the person is about to use again. */
const RECENT_MS = 10_000;

function noteUse(event: Event): void {
  if (!(event.target instanceof Element) || event.target.closest('[data-rht-toaster]')) return;
  lastUsed = event.target;
  usedAt = Date.now();
}

/**
 * A toast that arrives never covers the control the person just used (the checkbox they ticked, the field
 * they type in): when the toasts' area grows over it, the page scrolls it clear, by the overlap only.
 */
function keepClear(area: DOMRect, before: number): void {
  if (!lastUsed?.isConnected || Date.now() - usedAt > RECENT_MS) return;
  const used = lastUsed.getBoundingClientRect();
  if (used.top >= 0 && used.bottom <= before && used.bottom > area.top && used.left < area.right && used.right > area.left) {
    window.scrollBy({ top: used.bottom - area.top + 8, behavior: 'instant' });
  }
}

/**
 * Toasts never cover work (PRODUCT §4 "Toasts", §2 "Notifications"). Wherever the left margin beside the page
 * is wide enough (platform.css: 78rem and wider, on a page that leaves that margin free), they stay
 * bottom-left inside that margin and never reach the page. Narrower, or beside a page that fills the width, they show in a band across the whole bottom of the window, opaque like the header, that
 * is the window's bottom edge while it shows: the page keeps the band's height free below its end and as
 * scroll padding (`--toast-reserve`), so every control can be scrolled above it and one reached with Tab is
 * brought above it by the browser; nothing under the band shows through or can be pressed through it, and
 * the control just used is scrolled clear when the band grows over it ({@link keepClear}).
 */
function useToastReserve(area: RefObject<HTMLDivElement | null>, shown: number): void {
  const top = useRef(window.innerHeight);
  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const root = document.documentElement.style;
      if (shown === 0 || rect.height === 0) root.removeProperty(TOAST_RESERVE_VAR);
      else root.setProperty(TOAST_RESERVE_VAR, `${Math.ceil(rect.height)}px`);
      const before = top.current;
      top.current = shown === 0 ? window.innerHeight : rect.top;
      if (shown > 0 && rect.top < before) keepClear(rect, before);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [area, shown]);
  useEffect(() => {
    const events = ['pointerdown', 'focusin'];
    for (const name of events) document.addEventListener(name, noteUse, true);
    return () => {
      for (const name of events) document.removeEventListener(name, noteUse, true);
      document.documentElement.style.removeProperty(TOAST_RESERVE_VAR);
    };
  }, []);
}

function ToastView({ toast }: { toast: Toast }) {
  if (toast.type === 'custom') return <div className="platform-toast platform-toast--custom">{resolveValue(toast.message, toast)}</div>;
  return (
    <div className={toast.className ? `platform-toast ${toast.className}` : 'platform-toast'} style={toast.style}>
      <ToastIcon toast={toast} />
      <div className="platform-toast__message" {...ariaPropsOf(toast)}>
        {resolveValue(toast.message, toast)}
      </div>
    </div>
  );
}

/**
 * Notifications as configured for the product (docs/PRODUCT.md §2, §4, §9), drawn with react-hot-toast's
 * headless hook: its store, timers and pause, our layout (see {@link useToastReserve}). The newest toast is
 * nearest the bottom edge. A dismissed toast leaves at once (the store removes it 1000 ms later).
 *
 * Hovering the toasts with a mouse pauses their timers until the mouse leaves (PRODUCT §4). A touch never
 * pauses them: a tap brings no "leave" (the browser's emulated mouse stays where the finger was), which
 * would hold every toast for good, so only `pointerType === 'mouse'` counts. When the last toast goes from
 * under a resting mouse (its Undo clicked), the pause ends with it, so the next toast keeps its time.
 */
export function AppToaster() {
  const { toasts, handlers } = useToaster(TOAST_OPTIONS);
  const shown = toasts.filter((toast) => toast.visible);
  const area = useRef<HTMLDivElement>(null);
  const hovered = useRef(false);
  const { startPause, endPause } = handlers;
  useToastReserve(area, shown.length);
  const hover = (event: PointerEvent<HTMLDivElement>, on: boolean) => {
    if (event.pointerType !== 'mouse' || hovered.current === on) return;
    hovered.current = on;
    if (on) startPause();
    else endPause();
  };
  useEffect(() => {
    if (shown.length > 0 || !hovered.current) return;
    hovered.current = false;
    endPause();
  }, [shown.length, endPause]);

  return (
    <div ref={area} data-rht-toaster="" className="platform-toaster" onPointerEnter={(event) => hover(event, true)} onPointerLeave={(event) => hover(event, false)}>
      {shown.map((toast) => (
        <ToastView key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
