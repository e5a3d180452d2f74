/**
 * The colour the browser paints around the app (the phone's status bar, the installed app's title bar): the
 * header's surface in each theme (`--color-surface` of @tm/design-tokens), so the bar and the header are one.
 * index.html carries one `<meta name="theme-color">` per colour scheme, and its inline script (prerender.tsx)
 * sets both to the app's own theme before the first paint: the person's choice wins over the system's.
 */
export const THEME_COLORS = { light: '#ffffff', dark: '#181c2e' } as const;

export type ThemeName = keyof typeof THEME_COLORS;

/** Paints the browser's bar in the colour of `theme` (every theme-color meta of the page). */
export function applyThemeColor(theme: ThemeName): void {
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) meta.content = THEME_COLORS[theme];
}
