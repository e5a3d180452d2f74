import { useCallback, useSyncExternalStore } from 'react';

/**
 * The person's choices for this browser (docs/PRODUCT.md §10.10 "Preferences"): sounds and celebrations
 * (the confetti), both on by default as the spec has them (PRODUCT §1). Kept in localStorage under
 * `tm.preferences` like the theme (a device setting, not an account one, and nothing personal). Each bundle
 * (the shell and every remote) carries its own copy of this package, so a change is told to the other
 * bundles of the page through a window event, and to the other tabs by the browser's `storage` event.
 */
export interface Preferences {
  /** The add, success and delete sounds (PRODUCT §1). */
  sounds: boolean;
  /** The confetti, or the still check mark under reduced motion (PRODUCT §10.9). */
  celebrations: boolean;
}

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({ sounds: true, celebrations: true });

const STORAGE_KEY = 'tm.preferences';
const CHANGE_EVENT = 'tm:preferences';

let cachedRaw: string | null | undefined;
let cachedValue: Preferences = DEFAULT_PREFERENCES;
/** What was chosen on this page when storage refused to keep it. */
let unsaved: string | undefined;

function readRaw(): string | null {
  try {
    return (typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY)) ?? unsaved ?? null;
  } catch {
    return unsaved ?? null;
  }
}

function parse(raw: string | null): Preferences {
  if (!raw) return DEFAULT_PREFERENCES;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return DEFAULT_PREFERENCES;
    const record = value as Record<string, unknown>;
    return {
      sounds: typeof record.sounds === 'boolean' ? record.sounds : DEFAULT_PREFERENCES.sounds,
      celebrations: typeof record.celebrations === 'boolean' ? record.celebrations : DEFAULT_PREFERENCES.celebrations,
    };
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

/** The current preferences; the same object while nothing changed (a stable snapshot for React). */
export function readPreferences(): Preferences {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedValue = parse(raw);
  }
  return cachedValue;
}

/** Saves a change; every bundle of this page and every other tab hears of it. */
export function savePreferences(change: Partial<Preferences>): void {
  const next = JSON.stringify({ ...readPreferences(), ...change });
  try {
    localStorage.setItem(STORAGE_KEY, next);
    unsaved = undefined;
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
    unsaved = next;
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The preferences, re-rendered on every change from this page or another tab, and a setter. */
export function usePreferences(): [Preferences, (change: Partial<Preferences>) => void] {
  const preferences = useSyncExternalStore(subscribe, readPreferences, () => DEFAULT_PREFERENCES);
  const save = useCallback((change: Partial<Preferences>) => savePreferences(change), []);
  return [preferences, save];
}
