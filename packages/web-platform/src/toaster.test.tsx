import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { AppToaster } from './toaster';

describe('toaster', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    act(() => toast.remove());
    jest.useRealTimers();
  });

  it('shows toasts bottom-left, at most 350 px wide (narrower where the margin beside the page is)', () => {
    render(<AppToaster />);
    act(() => {
      toast('Hello');
    });
    const message = screen.getByText('Hello');
    const bar = message.closest('[role="status"]')?.parentElement as HTMLElement;
    // platform.css sets --toast-max-width: 350px, or the margin's width from 78rem up (the browser tests measure it).
    expect(bar.style.maxWidth).toBe('var(--toast-max-width, 350px)');
    const wrapper = bar.parentElement as HTMLElement;
    expect(wrapper.style.bottom).toBe('0px');
    // Left alignment comes from a generated class; the browser tests measure where the toast really is.
  });

  it('keeps success 2000 ms and blank/error 4000 ms, then removes them 1000 ms after dismissal', () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Saved');
      toast.error('Broken');
      toast('Plain');
    });
    // Each step lets React run the effect that schedules the next timer (dismiss, then remove).
    act(() => jest.advanceTimersByTime(1950));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(100));
    act(() => jest.advanceTimersByTime(1050));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByText('Broken')).toBeInTheDocument();
    expect(screen.getByText('Plain')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(850));
    expect(screen.getByText('Broken')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(100));
    act(() => jest.advanceTimersByTime(1050));
    expect(screen.queryByText('Broken')).not.toBeInTheDocument();
    expect(screen.queryByText('Plain')).not.toBeInTheDocument();
  });

  it('keeps a loading toast until it is dismissed', () => {
    render(<AppToaster />);
    let id = '';
    act(() => {
      id = toast.loading('Working');
    });
    act(() => jest.advanceTimersByTime(60_000));
    expect(screen.getByText('Working')).toBeInTheDocument();
    act(() => toast.dismiss(id));
    act(() => jest.advanceTimersByTime(1050));
    expect(screen.queryByText('Working')).not.toBeInTheDocument();
  });

  it('keeps the height of the toasts shown free at the end of the page, and gives it back when they are gone (issue #18)', () => {
    render(<AppToaster />);
    const reserve = () => document.documentElement.style.getPropertyValue('--toast-reserve');
    expect(reserve()).toBe('');
    let id = '';
    act(() => {
      id = toast('Covering something');
    });
    // jsdom measures nothing (height 0): the reserve is then the stack's margins alone, 2 × 16 px.
    expect(reserve()).toBe('32px');
    act(() => toast.dismiss(id));
    expect(reserve()).toBe('');
  });
});
