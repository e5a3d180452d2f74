import { act, fireEvent, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { AppToaster, TOAST_RESERVE_VAR } from './toaster';

/**
 * jsdom has no PointerEvent: the browser's, as far as these tests need it (a mouse event that says which
 * kind of pointer it is), so that React's pointer handlers see `pointerType`.
 */
class TestPointerEvent extends MouseEvent {
  readonly pointerType: string;
  constructor(type: string, init: MouseEventInit & { pointerType?: string } = {}) {
    super(type, init);
    this.pointerType = init.pointerType ?? '';
  }
}

beforeAll(() => {
  (window as { PointerEvent?: unknown }).PointerEvent ??= TestPointerEvent;
});

/** The toasts on screen, by their words. */
const shownTexts = () => [...document.querySelectorAll('[data-rht-toaster] .platform-toast')].map((item) => item.textContent);

describe('toaster', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    act(() => toast.remove());
    jest.useRealTimers();
  });

  it('shows each toast in the one toaster area, the newest first in the page (nearest the bottom edge on screen)', () => {
    render(<AppToaster />);
    const area = document.querySelector('[data-rht-toaster]')!;
    expect(area).toHaveClass('platform-toaster');
    // Nothing in it while no toast shows (platform.css hides it then).
    expect(area.childElementCount).toBe(0);
    act(() => {
      toast('Older');
    });
    act(() => {
      toast('Newer');
    });
    expect(shownTexts()).toEqual(['Newer', 'Older']);
    // The bottom-left place, the band and the 350 px come from platform.css: the browser tests measure them.
  });

  it('keeps success 2000 ms and blank/error 4000 ms; a dismissed toast leaves at once and is removed 1000 ms later', () => {
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
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByText('Broken')).toBeInTheDocument();
    expect(screen.getByText('Plain')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1850));
    expect(screen.getByText('Broken')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(100));
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
    expect(screen.queryByText('Working')).not.toBeInTheDocument();
  });

  it('announces an error as an alert (assertive) and everything else as a status (polite)', () => {
    render(<AppToaster />);
    act(() => {
      toast.error('Could not save');
      toast.success('Saved');
      toast('Plain');
      toast.loading('Working');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
    expect(screen.getByRole('alert')).toHaveAttribute('aria-live', 'assertive');
    const statuses = screen.getAllByRole('status');
    expect(statuses.map((status) => status.textContent).sort()).toEqual(['Plain', 'Saved', 'Working']);
    for (const status of statuses) expect(status).toHaveAttribute('aria-live', 'polite');
  });

  it('pauses for a mouse over the toasts, never for a touch (a tap brings no "leave")', () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Task restored');
    });
    const area = document.querySelector('[data-rht-toaster]')!;
    // A finger on the toast: the browser says "enter" and, on touch screens, never "leave".
    fireEvent.pointerEnter(area, { pointerType: 'touch' });
    act(() => jest.advanceTimersByTime(2050));
    expect(screen.queryByText('Task restored')).not.toBeInTheDocument();

    act(() => {
      toast.success('Task updated');
    });
    fireEvent.pointerEnter(area, { pointerType: 'mouse' });
    act(() => jest.advanceTimersByTime(10_000));
    expect(screen.getByText('Task updated')).toBeInTheDocument();
    fireEvent.pointerLeave(area, { pointerType: 'mouse' });
    // The time left before the mouse came (all of it here) runs from the moment it leaves.
    act(() => jest.advanceTimersByTime(1900));
    expect(screen.getByText('Task updated')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.queryByText('Task updated')).not.toBeInTheDocument();
  });

  it('ends a mouse pause when the last toast goes from under the mouse, so the next one keeps its time', () => {
    render(<AppToaster />);
    let id = '';
    act(() => {
      id = toast('Task deleted', { duration: Infinity });
    });
    const area = document.querySelector('[data-rht-toaster]')!;
    fireEvent.pointerEnter(area, { pointerType: 'mouse' });
    // Undo clicked: the toast goes from under the mouse, which does not move (no "leave").
    act(() => toast.dismiss(id));
    act(() => {
      toast.success('Task restored');
    });
    act(() => jest.advanceTimersByTime(2100));
    expect(screen.queryByText('Task restored')).not.toBeInTheDocument();
  });

  it('keeps the height of the toasts shown free at the end of the page, and gives it back when they are gone', () => {
    render(<AppToaster />);
    const reserve = () => document.documentElement.style.getPropertyValue(TOAST_RESERVE_VAR);
    expect(reserve()).toBe('');
    // jsdom lays nothing out (every box is 0 high): the area is given a height the way a browser would measure it.
    const area = document.querySelector<HTMLElement>('[data-rht-toaster]')!;
    area.getBoundingClientRect = () => ({ top: 700, bottom: 760, left: 0, right: 375, width: 375, height: 60, x: 0, y: 700, toJSON: () => ({}) });
    let id = '';
    act(() => {
      id = toast('Covering something');
    });
    expect(reserve()).toBe('60px');
    act(() => toast.dismiss(id));
    expect(reserve()).toBe('');
  });

  it('scrolls the control just used clear when the toasts arrive over it, by the overlap only', () => {
    render(
      <>
        <button type="button">Tick “Buy milk”</button>
        <AppToaster />
      </>,
    );
    const control = screen.getByRole('button', { name: 'Tick “Buy milk”' });
    control.getBoundingClientRect = () => ({ top: 700, bottom: 730, left: 16, right: 60, width: 44, height: 30, x: 16, y: 700, toJSON: () => ({}) });
    control.focus();
    const area = document.querySelector<HTMLElement>('[data-rht-toaster]')!;
    area.getBoundingClientRect = () => ({ top: 708, bottom: 768, left: 0, right: 375, width: 375, height: 60, x: 0, y: 708, toJSON: () => ({}) });
    const scrollBy = jest.spyOn(window, 'scrollBy').mockImplementation(() => undefined);
    act(() => {
      toast.success('Task completed');
    });
    // 730 - 708 + 8 px of breathing room.
    expect(scrollBy).toHaveBeenCalledWith({ top: 30, behavior: 'instant' });
    scrollBy.mockRestore();
  });
});
