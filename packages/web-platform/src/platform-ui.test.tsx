import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { useToasterStore } from 'react-hot-toast';
import { CONNECTION_PROBLEM_TITLE, ConnectionProblem } from './connection-problem';
import { notifyError, notifySuccess } from './notify';
import { OFFLINE_BANNER_TEXT, OfflineBanner } from './offline-banner';
import { AppToaster } from './toaster';

/** The toasts react-hot-toast holds right now (what the Toaster would show). */
function toastsNow() {
  const { result, unmount } = renderHook(() => useToasterStore());
  const toasts = result.current.toasts.map(({ type, message }) => ({ type, message }));
  unmount();
  return toasts;
}

/** Makes jsdom's navigator report offline until the returned function is called. */
function goOffline(): () => void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => false });
  return () => {
    // The real getter lives on Navigator.prototype; removing the own property brings it back.
    delete (window.navigator as { onLine?: boolean }).onLine;
  };
}

describe('notify', () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('keeps ONE toast for the same success message shown twice', () => {
    act(() => {
      notifySuccess('Task updated successfully');
      notifySuccess('Task updated successfully');
    });
    expect(toastsNow()).toEqual([{ type: 'success', message: 'Task updated successfully' }]);
  });

  it('shows two toasts for two different messages', () => {
    act(() => {
      notifySuccess('Task added successfully');
      notifySuccess('Task deleted successfully');
    });
    expect(toastsNow()).toHaveLength(2);
    expect(toastsNow()).toEqual(
      expect.arrayContaining([
        { type: 'success', message: 'Task added successfully' },
        { type: 'success', message: 'Task deleted successfully' },
      ]),
    );
  });

  it('keeps one error toast per message, apart from a success with the same words', () => {
    act(() => {
      notifyError("You're offline. Check your connection and try again.");
      notifyError("You're offline. Check your connection and try again.");
      notifySuccess("You're offline. Check your connection and try again.");
    });
    const toasts = toastsNow();
    expect(toasts).toHaveLength(2);
    expect(toasts.filter((t) => t.type === 'error')).toHaveLength(1);
    expect(toasts.filter((t) => t.type === 'success')).toHaveLength(1);
  });

  describe('with the Toaster on screen', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('restarts the 2000 ms of a success toast when the same message comes again', () => {
      render(<AppToaster />);
      const store = renderHook(() => useToasterStore());
      const saved = () => store.result.current.toasts.filter((t) => t.message === 'Saved');
      act(() => notifySuccess('Saved'));
      act(() => jest.advanceTimersByTime(1500));
      act(() => notifySuccess('Saved'));
      // Without the restart it would be dismissed at 2000 ms and removed 1000 ms later (by 3150 ms).
      act(() => jest.advanceTimersByTime(600));
      act(() => jest.advanceTimersByTime(1050));
      expect(saved()).toEqual([expect.objectContaining({ visible: true, type: 'success' })]);
      expect(screen.getAllByText('Saved')).toHaveLength(1);
      // 2000 ms after the second it is dismissed, and removed 1000 ms later.
      act(() => jest.advanceTimersByTime(400));
      expect(saved()).toEqual([expect.objectContaining({ visible: false })]);
      act(() => jest.advanceTimersByTime(1050));
      expect(screen.queryByText('Saved')).not.toBeInTheDocument();
      expect(saved()).toEqual([]);
    });
  });
});

describe('OfflineBanner', () => {
  let goOnline: (() => void) | undefined;
  afterEach(() => {
    goOnline?.();
    goOnline = undefined;
  });

  it('shows nothing while online, the notice when the browser goes offline, and nothing once back online', () => {
    render(<OfflineBanner />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();
    expect(screen.queryByText(OFFLINE_BANNER_TEXT)).not.toBeInTheDocument();

    act(() => {
      goOnline = goOffline();
      window.dispatchEvent(new Event('offline'));
    });
    expect(status).toHaveTextContent(OFFLINE_BANNER_TEXT);
    expect(screen.getByRole('status')).toBe(status); // the same live region, so it is announced

    act(() => {
      goOnline?.();
      goOnline = undefined;
      window.dispatchEvent(new Event('online'));
    });
    expect(status).toBeEmptyDOMElement();
  });

  it('shows the notice at once when the page starts offline', () => {
    goOnline = goOffline();
    render(<OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent(OFFLINE_BANNER_TEXT);
  });
});

describe('ConnectionProblem', () => {
  it('says what happened and calls onRetry on Retry and when the network comes back', async () => {
    const user = userEvent.setup();
    const onRetry = jest.fn();
    render(<ConnectionProblem onRetry={onRetry} retrying={false} />);

    expect(screen.getByRole('alert', { name: CONNECTION_PROBLEM_TITLE })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("Can't reach Task Manager");

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(onRetry).toHaveBeenCalledTimes(2);

    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('shows "Retrying…" on a disabled button while retrying', async () => {
    const user = userEvent.setup();
    const onRetry = jest.fn();
    const { rerender } = render(<ConnectionProblem onRetry={onRetry} retrying={false} />);
    rerender(<ConnectionProblem onRetry={onRetry} retrying />);

    const button = screen.getByRole('button', { name: 'Retrying…' });
    expect(button).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await user.click(button);
    expect(onRetry).not.toHaveBeenCalled();

    rerender(<ConnectionProblem onRetry={onRetry} retrying={false} />);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('stops listening for the network once it is gone, and follows a new onRetry', () => {
    const first = jest.fn();
    const second = jest.fn();
    const { rerender, unmount } = render(<ConnectionProblem onRetry={first} retrying={false} />);
    rerender(<ConnectionProblem onRetry={second} retrying={false} />);

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);

    unmount();
    window.dispatchEvent(new Event('online'));
    expect(second).toHaveBeenCalledTimes(1);
  });
});
