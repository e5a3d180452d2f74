import { UNDO_WINDOW_MS } from '@tm/contracts';
import { useSyncExternalStore } from 'react';
import toast from 'react-hot-toast';
import { TOUCH_ONLY_QUERY, UNDO_KEY } from './undo-key.js';
import './platform.css';

// Undo of an action the server took (docs/PRODUCT.md §10.11.4), one toast per action, for the task list and for
// Today (§10.15). Each bundle that uses it has its own list of offers: the screen's, ended with the screen.

export { UNDO_KEY } from './undo-key.js';

/** One action that can still be undone, as its toast offers it. */
export interface UndoOffer {
  /** Stable per action: the toast's id, so two offers never share a toast. */
  key: string;
  /** The server's message, as the spec shows it ("Task deleted successfully", "Task completed", "4 completed tasks cleared"). */
  message: string;
  /** What Undo brings back, in the words of its button's name: “Buy oat milk”, or "4 tasks". */
  what: string;
  /**
   * Whether the toast shows `what` under the message: the task's title, yes; a count the server's message
   * already says ("34 tasks marked complete"), no: the toast says it once.
   */
  showWhat: boolean;
  /** The verb of the action, for the button's accessible name: "deleting", "completing", "clearing", "marking". */
  action: string;
  undo: () => void;
}

interface LiveOffer extends UndoOffer {
  timer: ReturnType<typeof setTimeout> | null;
  /** Held open: it has the focus or the pointer, so it neither leaves nor stops answering its key. */
  held: { focus: boolean; pointer: boolean };
}

/** A task's title as the toast and its button name it: in quotes (the toast cuts a long one with an ellipsis). */
const quoted = (title: string) => `“${title}”`;

/** The offers still open, oldest first: the shortcut takes the newest. */
const offers: LiveOffer[] = [];

function close(offer: LiveOffer): void {
  if (offer.timer) clearTimeout(offer.timer);
  const index = offers.indexOf(offer);
  if (index >= 0) offers.splice(index, 1);
  toast.dismiss(offer.key);
}

function take(offer: LiveOffer): void {
  if (!offers.includes(offer)) return; // already on its way out: one Undo per action
  close(offer);
  offer.undo();
}

/** (Re)starts the offer's 5 s, unless it is held; the toast's own timer is restarted with it. */
function show(offer: LiveOffer): void {
  if (offer.timer) clearTimeout(offer.timer);
  const held = offer.held.focus || offer.held.pointer;
  offer.timer = held ? null : setTimeout(() => close(offer), UNDO_WINDOW_MS);
  toast(() => <UndoToast offer={offer} />, { id: offer.key, duration: held ? Infinity : UNDO_WINDOW_MS });
}

function hold(offer: LiveOffer, by: keyof LiveOffer['held'], on: boolean): void {
  if (offer.held[by] === on || !offers.includes(offer)) return;
  offer.held[by] = on;
  show(offer);
}

/** The touch-only query's list, where the browser has `matchMedia`. */
const touchList = (): MediaQueryList | null => (typeof window.matchMedia === 'function' ? window.matchMedia(TOUCH_ONLY_QUERY) : null);

function subscribeTouch(onChange: () => void): () => void {
  const media = touchList();
  media?.addEventListener?.('change', onChange);
  return () => media?.removeEventListener?.('change', onChange);
}

/** Whether this is a touch-only device, following changes (false where `matchMedia` is missing). */
const useTouchOnly = (): boolean => useSyncExternalStore(subscribeTouch, () => touchList()?.matches ?? false, () => false);

/**
 * The toast of one offer. Its key, U, is shown (a keycap, and "Press U to undo." for screen readers) only
 * where a keyboard is likely: a device whose main pointer is a finger (`hover: none` and `pointer: coarse`)
 * gets neither, though the key still works when a keyboard is attached.
 */
function UndoToast({ offer }: { offer: LiveOffer }) {
  const touchOnly = useTouchOnly();
  return (
    <span
      className="platform-undo"
      onFocus={() => hold(offer, 'focus', true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) hold(offer, 'focus', false);
      }}
      onPointerEnter={() => hold(offer, 'pointer', true)}
      onPointerLeave={() => hold(offer, 'pointer', false)}
    >
      <span className="platform-undo__text">
        <span>{offer.message}</span>
        {offer.showWhat && <span className="platform-undo__what">{offer.what}</span>}
        {!touchOnly && <span className="visually-hidden">Press {UNDO_KEY.toUpperCase()} to undo.</span>}
      </span>
      <button
        type="button"
        className="platform-undo__button"
        aria-label={`Undo ${offer.action} ${offer.what}`}
        aria-keyshortcuts={touchOnly ? undefined : UNDO_KEY}
        onClick={() => take(offer)}
      >
        {touchOnly ? (
          'Undo'
        ) : (
          <>
            {/*
              The key shows as generated content (the stylesheet writes data-key): the button's visible text stays
              "Undo", a part of its name "Undo completing …" (WCAG 2.5.3 Label in Name); aria-keyshortcuts and the
              hidden sentence tell the key.
            */}
            Undo <kbd className="platform-undo__key" data-key={UNDO_KEY.toUpperCase()} aria-hidden="true" />
          </>
        )}
      </button>
    </span>
  );
}

/**
 * Offers Undo of an action the server took (docs/PRODUCT.md §10.11.4): a toast with the server's message,
 * the task it concerns (for a single task) and an "Undo" button, for UNDO_WINDOW_MS (5 s), one toast per
 * action. It stays while it has the focus or the pointer. The newest offer also answers the {@link UNDO_KEY}
 * key ({@link undoLatest}). The toast is a live region, so its words (and the key) are read out when it appears.
 */
export function offerUndo(offer: UndoOffer): void {
  const previous = offers.find((open) => open.key === offer.key);
  if (previous) close(previous);
  const live: LiveOffer = { ...offer, timer: null, held: { focus: false, pointer: false } };
  offers.push(live);
  show(live);
}

/** The delete of one task: its toast names it. */
export function offerUndoDelete(title: string, todoId: string, message: string, undo: () => void): void {
  offerUndo({ key: `undo:${todoId}`, message, what: quoted(title), showWhat: true, action: 'deleting', undo });
}

/**
 * The tick (or untick) of one task, from the task list or Today: its toast names it ("Task completed",
 * “Buy oat milk”). A new tick of the same task replaces its offer: Undo always undoes the latest.
 */
export function offerUndoTick(title: string, todoId: string, completed: boolean, message: string, undo: () => void): void {
  offerUndo({ key: `undo-tick:${todoId}`, message, what: quoted(title), showWhat: true, action: completed ? 'completing' : 'marking active', undo });
}

/** Undoes the newest action still on offer; false when there is none (its 5 s are over). */
export function undoLatest(): boolean {
  const newest = offers.at(-1);
  if (!newest) return false;
  take(newest);
  return true;
}

/** The screen is leaving: its offers end with it (nothing left to answer the key, no toast left behind). */
export function closeUndoOffers(): void {
  for (const offer of [...offers]) close(offer);
}
