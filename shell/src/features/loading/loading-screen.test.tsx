import { act, isInaccessible, render, screen, within } from '@testing-library/react';
import { CHARACTERS, LoadingScreen } from './loading-screen';
import { loadingScreenMarkup, NO_SCRIPT_MESSAGE } from '../../app/prerender';

const timingOf = (element: HTMLElement, name: string) => element.style.getPropertyValue(name);

/** The element's HTML with every style attribute written the one way the CSSOM writes it. */
function normalised(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const styled of [copy, ...copy.querySelectorAll<HTMLElement>('[style]')]) {
    if (styled instanceof HTMLElement && styled.hasAttribute('style')) styled.setAttribute('style', styled.style.cssText);
  }
  return copy.outerHTML;
}

describe('loading screen', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows the fixed texts and all six characters, cycled by CSS every 2 s with the dots every 600 ms', () => {
    expect(CHARACTERS).toHaveLength(6);
    const { container } = render(<LoadingScreen />);
    const status = container.querySelector<HTMLElement>('.loading-screen')!;
    // Nothing is ready before the server has answered: PRODUCT §2's two lines come with stage="ready".
    expect(screen.getByText('Starting up')).toBeInTheDocument();
    expect(screen.getByText('Connecting to the server...')).toBeInTheDocument();
    expect(screen.queryByText('System Ready')).not.toBeInTheDocument();
    // PRODUCT §9's constants drive the CSS animations (loading-screen.css): no timer re-renders the screen.
    expect(timingOf(status, '--loading-character-ms')).toBe('2000ms');
    expect(timingOf(status, '--loading-dot-ms')).toBe('600ms');
    const characters = screen.getByTestId('loading-character').querySelectorAll<HTMLElement>('.loading-screen__character');
    expect([...characters].map((c) => c.style.getPropertyValue('--loading-index'))).toEqual(['0', '1', '2', '3', '4', '5']);
    CHARACTERS.forEach(({ name, quote }, index) => {
      expect(characters[index]).toHaveTextContent(name);
      expect(characters[index]).toHaveTextContent(quote);
    });
    expect(document.querySelectorAll('.loading-screen__dots span')).toHaveLength(3);
  });

  it('says "Loading" and the stage from one live region that holds no quote, and has no landmark of its own', () => {
    render(<LoadingScreen />);
    const live = screen.getByRole('status', { name: 'Loading' });
    expect(live).toHaveAttribute('role', 'status');
    // What the region says: "Loading" (the dots are drawn, not said) and the stage; never a character or quote.
    expect(live.textContent).toBe('Loading...Starting upConnecting to the server...');
    expect(live.querySelector('.loading-screen__dots')).toHaveAttribute('aria-hidden', 'true');
    for (const { name, quote } of CHARACTERS) {
      expect(live).not.toHaveTextContent(name);
      expect(live).not.toHaveTextContent(quote);
    }
    expect(document.querySelectorAll('[role="status"], [aria-live]')).toHaveLength(1);
    // Each quote is a figure with its caption: no <footer>, so no "contentinfo" landmark besides the page's own.
    expect(screen.queryAllByRole('contentinfo')).toEqual([]);
    expect(document.querySelector('.loading-screen footer, .loading-screen header, .loading-screen main')).toBeNull();
    expect(screen.getAllByRole('figure')).toHaveLength(CHARACTERS.length);
  });

  it('says "System Ready" and "Initializing application components..." once the server has answered', () => {
    render(<LoadingScreen stage="ready" />);
    expect(screen.getByText('System Ready')).toBeInTheDocument();
    expect(screen.getByText('Initializing application components...')).toBeInTheDocument();
    expect(screen.queryByText('Starting up')).not.toBeInTheDocument();
  });

  it('draws each character as an inline SVG and keeps its emoji as text for assistive tech', () => {
    render(<LoadingScreen />);
    const pictures = new Set<string>();
    const characters = screen.getByTestId('loading-character').querySelectorAll<HTMLElement>('.loading-screen__character');
    CHARACTERS.forEach(({ emoji }, index) => {
      const shown = characters[index]!;
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
    });
    expect(pictures.size).toBe(CHARACTERS.length);
  });

  it('carries on from where the screen was, however often it is mounted again', () => {
    const first = render(<LoadingScreen />);
    const startedAt = Number.parseFloat(timingOf(first.container.querySelector<HTMLElement>('.loading-screen')!, '--loading-elapsed'));
    first.unmount();
    act(() => jest.advanceTimersByTime(3100));
    const second = render(<LoadingScreen />);
    const later = Number.parseFloat(timingOf(second.container.querySelector<HTMLElement>('.loading-screen')!, '--loading-elapsed'));
    expect(later - startedAt).toBeGreaterThanOrEqual(3000);
    expect(later - startedAt).toBeLessThan(3500);
  });

  it('is the same markup as the screen written into index.html, which adds only its no-script note', () => {
    const { container } = render(<LoadingScreen />);
    const page = document.createElement('div');
    page.innerHTML = loadingScreenMarkup();
    expect(page.querySelector('.loading-screen__noscript')?.textContent ?? page.querySelector('noscript')?.textContent).toContain(NO_SCRIPT_MESSAGE);
    page.querySelector('noscript')?.remove();
    const react = container.firstElementChild as HTMLElement;
    react.style.setProperty('--loading-elapsed', '0ms');
    expect(normalised(react)).toBe(normalised(page.firstElementChild!));
  });
});
