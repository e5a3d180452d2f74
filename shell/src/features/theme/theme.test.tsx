import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeToggle } from './theme-toggle';
import { savedTheme } from './theme';
import { THEME_COLORS } from './theme-color';

beforeEach(() => {
  localStorage.clear();
  document.documentElement.setAttribute('data-theme', 'light');
});

describe('theme toggle', () => {
  it('switches light ↔ dark on the document root and saves it under "theme"', async () => {
    render(<ThemeToggle />);
    expect(savedTheme()).toBe('light');
    await userEvent.click(screen.getByTitle('Switch to dark mode'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toHaveAttribute('title', 'Switch to light mode');
    await userEvent.click(screen.getByTitle('Switch to light mode'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('starts from the theme already applied to the document (by the pre-paint script)', () => {
    document.documentElement.setAttribute('data-theme', 'dark');
    render(<ThemeToggle />);
    expect(screen.getByTitle('Switch to light mode')).toBeInTheDocument();
  });

  it('paints the browser’s bar (every theme-color meta) in the colour of the theme chosen, whatever the system’s', async () => {
    document.head.innerHTML = `<meta name="theme-color" content="${THEME_COLORS.light}" media="(prefers-color-scheme: light)"><meta name="theme-color" content="${THEME_COLORS.dark}" media="(prefers-color-scheme: dark)">`;
    const colours = () => [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content);
    render(<ThemeToggle />);
    await userEvent.click(screen.getByTitle('Switch to dark mode'));
    expect(colours()).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    await userEvent.click(screen.getByTitle('Switch to light mode'));
    expect(colours()).toEqual([THEME_COLORS.light, THEME_COLORS.light]);
    document.head.innerHTML = '';
  });

  it('reads anything but "dark" as light', () => {
    localStorage.setItem('theme', 'purple');
    expect(savedTheme()).toBe('light');
  });
});
