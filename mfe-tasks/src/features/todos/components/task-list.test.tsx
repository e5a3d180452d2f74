import { addTodo, deleteTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, playedSources, stubAudioPlay, stubCanvas } from '../../../test/browser-stubs';
import { allRowsEntered, tickToasts, toastsSaying, undoToasts } from '../../../test/page-helpers';
import { preloadQuickAdd } from './add-task-form';

// The quick-add parser in place before any test types, so its arrival never updates a form outside act().
beforeAll(() => preloadQuickAdd());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rowOf = (title: string) => {
  const row = screen.getByText(title).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const confettiCanvas = () => document.querySelector('.tasks-confetti canvas');
const rowTexts = () => screen.getAllByRole('listitem').map((row) => row.textContent);

describe('the task rows', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove(); // react-hot-toast keeps its toasts in a module store, shared by the tests of this file
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => jest.restoreAllMocks());

  it('ticks a task at once, and celebrates with sound and 3 s of confetti only once the server confirmed it', async () => {
    await addTodo('Feed the cat');
    renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Feed the cat” as completed' });
    expect(checkbox).not.toBeChecked();
    const title = screen.getByText('Feed the cat');
    expect(title).toHaveClass('tasks-item__title'); // a tap on it edits (task-edit.test.tsx); only the box ticks
    expect(title).toHaveAttribute('dir', 'auto'); // a right-to-left title reads the right way round

    fireEvent.click(checkbox);
    // Optimistic: in the click's own render, before any answer or cache tick…
    expect(checkbox).toBeChecked();
    expect(checkbox).toHaveAccessibleName('Mark “Feed the cat” as not completed');
    expect(screen.getByText('Feed the cat')).toHaveClass('tasks-item__title--completed');
    // …but the celebration waits for the server.
    expect(play).not.toHaveBeenCalled();
    expect(confettiCanvas()).toBeNull();

    await waitFor(() => expect(confettiCanvas()).toBeInTheDocument());
    expect(playedSources(play)).toEqual(['/sounds/success.mp3']);
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));
    // The server says what happened, with Undo (PRODUCT §10.11.4), naming the task.
    expect(tickToasts()).toHaveLength(1);
    expect(tickToasts()[0]).toHaveTextContent('Task completed“Feed the cat”');
    const overlay = confettiCanvas()?.parentElement;
    expect(overlay).toHaveAttribute('aria-hidden', 'true');
    expect(overlay).toHaveStyle({ position: 'fixed', pointerEvents: 'none' });

    await act(() => sleep(2000));
    expect(confettiCanvas()).toBeInTheDocument();
    await waitFor(() => expect(confettiCanvas()).not.toBeInTheDocument(), { timeout: 1500 });
    expect(checkbox).toBeChecked();
    expect(screen.getByText('Every task is done. Well played!')).toBeInTheDocument();
  });

  it('un-completes a task without sound or confetti, and shows the server message with Undo', async () => {
    const { todo } = await addTodo('Water the plants');
    await updateTodo(todo._id, { completed: true });
    renderPage(<TaskListPage />);

    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Water the plants” as not completed' });
    fireEvent.click(checkbox);
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleName('Mark “Water the plants” as completed');
    expect(screen.getByText('Water the plants')).not.toHaveClass('tasks-item__title--completed');
    await waitFor(() => expect(tickToasts('Task marked active')).toHaveLength(1));
    expect(within(tickToasts('Task marked active')[0]!).getByRole('button', { name: 'Undo marking active “Water the plants”' })).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(false));
    expect(play).not.toHaveBeenCalled();
    expect(confettiCanvas()).toBeNull();
  });

  it('offers Undo for each of several ticks, one toast per task', async () => {
    for (const title of ['first', 'second', 'third']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('third');
    await allRowsEntered();

    for (const title of ['first', 'second', 'third']) fireEvent.click(screen.getByRole('checkbox', { name: `Mark “${title}” as completed` }));
    await waitFor(async () => expect((await fetchTodos()).every((todo) => todo.completed)).toBe(true));
    await waitFor(() => expect(playedSources(play)).toEqual(['/sounds/success.mp3', '/sounds/success.mp3', '/sounds/success.mp3']));
    await waitFor(() => expect(tickToasts()).toHaveLength(3));
  });

  it('pins a task: it moves first, is highlighted, and the pressed pin button is its one pinned indicator', async () => {
    const user = userEvent.setup();
    await addTodo('Older task');
    await addTodo('Newer task');
    renderPage(<TaskListPage />);
    await screen.findByText('Older task');
    await allRowsEntered();
    expect(rowTexts()).toEqual(['Newer task', 'Older task']);

    // Added behind the page's back, with no live stream in this test: only a refetch of the list would show it.
    await addTodo('Added elsewhere');

    const pin = within(rowOf('Older task')).getByRole('button', { name: 'Pin “Older task”' });
    expect(pin).toHaveAttribute('title', 'Pin “Older task”');
    expect(pin).toHaveAttribute('aria-pressed', 'false');
    await user.click(pin);
    expect(rowTexts()).toEqual(['Older task', 'Newer task']);
    expect(rowOf('Older task')).toHaveClass('tasks-item--pinned');
    const unpin = within(rowOf('Older task')).getByRole('button', { name: 'Unpin “Older task”' });
    expect(unpin).toHaveAttribute('aria-pressed', 'true');
    expect(unpin).toHaveAttribute('title', 'Unpin “Older task”');
    // On a wide screen the pressed button says "pinned": no second mark in the row.
    expect(within(rowOf('Older task')).queryByText('Pinned')).not.toBeInTheDocument();
    expect(rowOf('Newer task')).not.toHaveClass('tasks-item--pinned');
    expect(within(rowOf('Newer task')).getByRole('button', { name: 'Pin “Newer task”' })).toHaveAttribute('aria-pressed', 'false');
    // The server's answer goes into the cache; the list is not fetched again after the pin.
    await waitFor(() => expect(toastsSaying('Task pinned')).toHaveLength(1));
    await sleep(300);
    expect(rowTexts()).toEqual(['Older task', 'Newer task']);
    await waitFor(async () =>
      expect((await fetchTodos()).map((t) => [t.title, t.isPinned])).toEqual([
        ['Older task', true],
        ['Added elsewhere', false],
        ['Newer task', false],
      ]),
    );
  });

  it('deletes tasks: plays the deleted sound, offers Undo, and moves the focus to the next row, else the previous one, else the input', async () => {
    const user = userEvent.setup();
    for (const title of ['bottom', 'middle', 'top']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('bottom');
    await allRowsEntered();
    const heading = screen.getByRole('heading', { name: 'Your tasks' });
    expect(heading).not.toHaveAttribute('tabindex');

    const middle = rowOf('middle');
    const deleteMiddle = within(middle).getByRole('button', { name: 'Delete “middle”' });
    expect(deleteMiddle).toHaveAttribute('title', 'Delete “middle”');
    await user.click(deleteMiddle);
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    expect(screen.getByRole('checkbox', { name: 'Mark “bottom” as completed' })).toHaveFocus(); // the next row
    await waitFor(() => expect(middle).not.toBeInTheDocument());
    await waitFor(() => expect(undoToasts()).toHaveLength(1));

    const bottom = rowOf('bottom');
    await user.click(within(bottom).getByRole('button', { name: 'Delete “bottom”' }));
    expect(screen.getByRole('checkbox', { name: 'Mark “top” as completed' })).toHaveFocus(); // no next row: the previous one
    await waitFor(() => expect(bottom).not.toBeInTheDocument());

    const top = rowOf('top');
    await user.click(within(top).getByRole('button', { name: 'Delete “top”' }));
    expect(screen.getByPlaceholderText('What would you like to accomplish?')).toHaveFocus(); // no row left: the input
    await waitFor(() => expect(top).not.toBeInTheDocument());
    expect(screen.getByText('No tasks')).toBeInTheDocument();
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3', '/sounds/deleted.mp3', '/sounds/deleted.mp3']);
    await waitFor(() => expect(undoToasts()).toHaveLength(3)); // one per task: each can be undone
    expect(heading).not.toHaveFocus();
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });

  it('says why a delete failed with the server message in an error toast', async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const noted = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const { todo } = await addTodo('Already gone');
    renderPage(<TaskListPage />);
    await screen.findByText('Already gone');
    const row = rowOf('Already gone');
    await deleteTodo(todo._id); // behind the page's back: the delete will get a 404

    await user.click(within(row).getByRole('button', { name: 'Delete “Already gone”' }));
    expect(await screen.findByText('Task not found')).toBeInTheDocument();
    expect(toastsSaying('Task not found')).toHaveLength(1);
    // An answer the page expects and explains is one quiet line, no stack trace.
    expect(noted).toHaveBeenCalledWith('Deleting the task failed: 404');
    expect(logged).not.toHaveBeenCalled();
    expect(screen.queryByText('Task deleted successfully')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Already gone')).not.toBeInTheDocument()); // the server says it is gone: it stays gone
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });

  it('brings the row back and says why when a delete fails (offline)', async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await addTodo('Keep me');
    renderPage(<TaskListPage />);
    await screen.findByText('Keep me');
    await allRowsEntered();

    const backOnline = goOffline();
    try {
      await user.click(within(rowOf('Keep me')).getByRole('button', { name: 'Delete “Keep me”' }));
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      // Offline is expected and explained on screen: one quiet line, no stack trace.
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^Deleting the task failed: You're offline/));
      // Back, and usable again; staying there (a refetch offline fails and keeps the list).
      await waitFor(() => expect(rowOf('Keep me')).not.toHaveAttribute('inert'));
      await act(() => sleep(700)); // longer than the exit animation
      expect(screen.getByRole('checkbox', { name: 'Mark “Keep me” as completed' })).toBeInTheDocument();
      expect(rowOf('Keep me')).not.toHaveAttribute('inert');
      expect(screen.queryByText('No tasks')).not.toBeInTheDocument();
    } finally {
      backOnline();
    }
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Keep me']));
  });

  it('takes away a task the server no longer has when its tick answers 404, and says why, without celebrating', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Deleted elsewhere');
    renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Deleted elsewhere” as completed' });
    await deleteTodo(todo._id); // behind the page's back: the update will get a 404

    const row = rowOf('Deleted elsewhere');
    await user.click(checkbox);
    await waitFor(() => expect(checkbox).toBeChecked()); // optimistic: before the server answered
    expect(await screen.findByText('Task not found')).toBeInTheDocument();
    // Deleted on another device: it leaves this list too, instead of staying as a row nobody can change.
    await waitFor(() => expect(row).not.toBeInTheDocument());
    expect(tickToasts()).toHaveLength(0);
    expect(play).not.toHaveBeenCalled();
    expect(confettiCanvas()).toBeNull();
  });

  it('reverts a tick that cannot reach the server (offline) and says so in plain words', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTodo('Offline tick');
    renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Offline tick” as completed' });

    const backOnline = goOffline();
    try {
      await user.click(checkbox);
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      expect(checkbox).not.toBeChecked();
      expect(play).not.toHaveBeenCalled();
      expect(confettiCanvas()).toBeNull();
    } finally {
      backOnline();
    }
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(false));
  });

  it('lets a delete win over a tick of the same task still in flight: nothing is shown or rolled back', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTodo('Tick then delete');
    const { queryClient } = renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Tick then delete” as completed' });
    const row = rowOf('Tick then delete');

    // Both in the same tick: the delete takes the task out of the cache before the tick can answer.
    fireEvent.click(checkbox);
    fireEvent.click(within(row).getByRole('button', { name: 'Delete “Tick then delete”' }));
    expect(await screen.findByText('Task deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(queryClient.isMutating()).toBe(0));
    await waitFor(() => expect(row).not.toBeInTheDocument());
    await act(() => sleep(300)); // any late reaction of the tick would show by now

    expect(tickToasts()).toHaveLength(0);
    expect(screen.queryByText('Task not found')).not.toBeInTheDocument();
    expect(screen.queryByText('Tick then delete')).not.toBeInTheDocument();
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    expect(confettiCanvas()).toBeNull();
    expect(screen.getByText('No tasks')).toBeInTheDocument();
    expect(logged).not.toHaveBeenCalledWith('Deleting the task failed', expect.anything());
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });
});
