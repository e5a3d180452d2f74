import { act, isInaccessible, render, screen, within } from '@testing-library/react';
import { CHARACTERS, LoadingScreen } from './loading-screen';

describe('loading screen', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows the fixed texts, a dot every 600 ms and a new character every 2 s, over six characters', () => {
    expect(CHARACTERS).toHaveLength(6);
    render(<LoadingScreen />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.getByText('System Ready')).toBeInTheDocument();
    expect(screen.getByText('Initializing application components...')).toBeInTheDocument();
    const dots = () => document.querySelector('.loading-screen__dots')?.textContent;
    const character = () => screen.getByTestId('loading-character').textContent;
    expect(dots()).toBe('.');
    expect(character()).toContain(CHARACTERS[0].name);
    act(() => jest.advanceTimersByTime(600));
    expect(dots()).toBe('..');
    act(() => jest.advanceTimersByTime(600));
    expect(dots()).toBe('...');
    act(() => jest.advanceTimersByTime(600));
    expect(dots()).toBe('.');
    expect(character()).toContain(CHARACTERS[0].name);
    act(() => jest.advanceTimersByTime(200));
    expect(character()).toContain(CHARACTERS[1].name);
    act(() => jest.advanceTimersByTime(2000 * 5));
    expect(character()).toContain(CHARACTERS[0].name);
  });

  it('draws each character as an inline SVG and keeps its emoji as text for assistive tech', () => {
    render(<LoadingScreen />);
    const pictures = new Set<string>();
    for (const { emoji, name } of CHARACTERS) {
      const shown = screen.getByTestId('loading-character');
      expect(shown.textContent).toContain(name);
      const svgs = shown.querySelectorAll('svg');
      expect(svgs).toHaveLength(1);
      const svg = svgs[0] as SVGSVGElement;
      expect(svg).toHaveAttribute('viewBox', '0 0 64 64');
      expect(isInaccessible(svg)).toBe(true);
      expect(svg.querySelector('path, circle, ellipse, rect')).not.toBeNull();
      pictures.add(svg.innerHTML);
      // The emoji is exposed as (visually hidden) text, not hidden from the accessibility tree.
      const text = within(shown).getByText(emoji);
      expect(text).toHaveClass('visually-hidden');
      expect(isInaccessible(text)).toBe(false);
      act(() => jest.advanceTimersByTime(2000));
    }
    expect(pictures.size).toBe(CHARACTERS.length);
  });
});
