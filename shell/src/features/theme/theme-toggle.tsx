import { MoonIcon, SunIcon } from '@tm/web-platform';
import { useTheme } from './theme';

/** Header button titled "Switch to light mode" / "Switch to dark mode" (PRODUCT §2 Header). */
export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const label = theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode';
  return (
    <button type="button" className="icon-button" title={label} aria-label={label} onClick={toggle}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
