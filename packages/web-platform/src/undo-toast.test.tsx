import { UNDO_WINDOW_MS } from '@tm/contracts';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { AppToaster } from './toaster';
import { useUndoKey } from './undo-on-demand';
import { closeUndoOffers, offerUndo, offerUndoDelete, offerUndoTick, undoLatest } from './undo-toast';

// The one Undo toast of the task list and Today (docs/PRODUCT.md §10.11.4, §10.15): its words, its button's
// name, its 5 s, and the U key of a screen that loads it on demand (useUndoKey).

const offerWith = (text: string) => screen.getAllByRole('status').find((element) => element.textContent?.startsWith(text));

describe('the Undo toast', () => {
  beforeEach(() => {
    render(<AppToaster />);
  });
  afterEach(() => {
    act(() => {
      closeUndoOffers();
      toast.remove();
    });
    jest.useRealTimers();
  });

  it('says the message, the task and the key, and Undo undoes that action once', async () => {
    const user = userEvent.setup();
    const undo = jest.fn();
    act(() => offerUndoTick('Water the plants', 't1', true, 'Task completed; it repeats', undo));
    const offer = await waitFor(() => {
      const found = offerWith('Task completed; it repeats');
      expect(found).toBeDefined();
      return found!;
    });
    expect(offer).toHaveTextContent('Task completed; it repeats“Water the plants”Press U to undo.Undo');
    expect(offer.querySelector('kbd')).toHaveAttribute('data-key', 'U');
    const button = within(offer).getByRole('button', { name: 'Undo completing “Water the plants”' });
    expect(button).toHaveAttribute('aria-keyshortcuts', 'u');
    expect(offer.querySelector('.platform-undo')).not.toBeNull();

    await user.click(button);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(undoLatest()).toBe(false); // taken: nothing left to undo
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('undoes the newest offer first, each exactly once, and nothing after 5 seconds', () => {
    jest.useFakeTimers();
    const first = jest.fn();
    const second = jest.fn();
    act(() => {
      offerUndoDelete('Buy oat milk', 'a', 'Task deleted successfully', first);
      offerUndo({ key: 'undo-bulk:x', message: '2 completed tasks cleared', what: '2 tasks', showWhat: false, action: 'clearing', undo: second });
    });
    expect(screen.getByRole('button', { name: 'Undo deleting “Buy oat milk”' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo clearing 2 tasks' })).toBeInTheDocument();
    act(() => {
      expect(undoLatest()).toBe(true);
    });
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(UNDO_WINDOW_MS + 1));
    expect(undoLatest()).toBe(false);
    expect(first).not.toHaveBeenCalled();
  });

  it('a new tick of the same task replaces its offer', () => {
    const before = jest.fn();
    const after = jest.fn();
    act(() => {
      offerUndoTick('Call mum', 'c', true, 'Task completed', before);
      offerUndoTick('Call mum', 'c', false, 'Task marked active', after);
    });
    expect(screen.queryByRole('button', { name: 'Undo completing “Call mum”' })).not.toBeInTheDocument();
    act(() => {
      undoLatest();
    });
    expect(after).toHaveBeenCalledTimes(1);
    expect(before).not.toHaveBeenCalled();
  });
});

describe('useUndoKey (a screen that loads its Undo toasts on demand)', () => {
  afterEach(() => {
    act(() => {
      closeUndoOffers();
      toast.remove();
    });
  });

  it('U outside fields undoes the newest offer; typed in a field, with Ctrl, or with none on offer, it does nothing', async () => {
    const user = userEvent.setup();
    render(
      <>
        <AppToaster />
        <input aria-label="Date" />
      </>,
    );
    renderHook(() => useUndoKey());
    const undo = jest.fn();
    act(() => offerUndoTick('Pay rent', 'p', true, 'Task completed', undo));

    await user.click(screen.getByRole('textbox', { name: 'Date' }));
    await user.keyboard('u');
    await user.keyboard('{Control>}u{/Control}');
    expect(undo).not.toHaveBeenCalled();

    act(() => screen.getByRole('textbox', { name: 'Date' }).blur());
    await user.keyboard('u');
    await waitFor(() => expect(undo).toHaveBeenCalledTimes(1));
    await user.keyboard('u');
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('ends the screen’s offers when the screen goes', async () => {
    render(<AppToaster />);
    const { unmount } = renderHook(() => useUndoKey());
    const undo = jest.fn();
    act(() => offerUndoTick('Book flights', 'b', true, 'Task completed', undo));
    expect(screen.getByRole('button', { name: 'Undo completing “Book flights”' })).toBeInTheDocument();
    unmount();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo completing “Book flights”' })).not.toBeInTheDocument());
    expect(undoLatest()).toBe(false);
    expect(undo).not.toHaveBeenCalled();
  });
});
