import { act, render, screen } from '@testing-library/react';
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
});
