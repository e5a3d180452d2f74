import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeToggle } from './theme-toggle';
import { savedTheme } from './theme';

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

  it('reads anything but "dark" as light', () => {
    localStorage.setItem('theme', 'purple');
    expect(savedTheme()).toBe('light');
  });
});
