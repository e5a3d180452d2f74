import { useCallback, useSyncExternalStore } from 'react';
import { applyThemeColor, type ThemeName } from './theme-color';

type Theme = ThemeName;

/** PRODUCT §3 Local preference: key `theme`, value "light" or "dark"; light by default (§9). */
const THEME_STORAGE_KEY = 'theme';

/** The theme on the document root: index.html's inline script sets it before first paint. */
function currentTheme(): Theme {
  return document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light';
}

export function savedTheme(): Theme {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

const listeners = new Set<() => void>();

/** The theme on the page's root, the browser's bar in its colour (theme-color.ts), and saved. */
function applyTheme(theme: Theme): void {
  document.documentElement.setAttribute('data-theme', theme);
  applyThemeColor(theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode): the theme still applies for this visit.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The applied theme and a toggle; the document root attribute is the single source of truth. */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const theme = useSyncExternalStore<Theme>(subscribe, currentTheme, () => 'light');
  const toggle = useCallback(() => applyTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggle };
}
