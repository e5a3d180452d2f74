import { addTodo, fetchTodos, restoreTodo, updateTodo } from '@tm/api-client';
import { UNDO_WINDOW_MS } from '@tm/contracts';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, playedSources, stubAudioPlay } from '../../../test/browser-stubs';
import { allRowsEntered, rowOf, shownTitles, sleep, toastsSaying, undoToasts } from '../../../test/page-helpers';

/**
 * Clicks the Undo of the delete's toast, then moves the pointer away: react-hot-toast pauses its toasts'
 * timers while the pointer is over them, in a store every test of the file shares.
 */
async function undo(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(within(undoToasts()[0]!).getByRole('button', { name: /^Undo deleting/ }));
  await user.hover(screen.getByRole('heading', { level: 1 }));
}

describe('Undo after a delete (docs/PRODUCT.md §10.11.4)', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('takes the row away at once, offers "Task deleted successfully" with Undo, and Undo puts the task back exactly where it was', async () => {
    const user = userEvent.setup();
    await addTodo('bottom');
    const { todo: middle } = await addTodo('middle');
    await updateTodo(middle._id, { completed: true });
    await addTodo('top');
    const before = await fetchTodos();
    renderPage(<TaskListPage />);
    await screen.findByText('bottom');
    await allRowsEntered();

    const row = rowOf('middle');
    await user.click(within(row).getByRole('button', { name: 'Delete “middle”' }));
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    expect(screen.getByRole('checkbox', { name: 'Mark “bottom” as completed' })).toHaveFocus(); // as before: the next row
    await waitFor(() => expect(row).not.toBeInTheDocument());
    await waitFor(() => expect(undoToasts()).toHaveLength(1));
    expect(toastsSaying('Task deleted successfully')).toHaveLength(0); // only the Undo toast says it
    // It names the task it brings back, and says how to undo from the keyboard.
    expect(undoToasts()[0]).toHaveTextContent('Task deleted successfully“middle”Press U to undo.Undo');
    expect(undoToasts()[0]!.querySelector('kbd')).toHaveAttribute('data-key', 'U');
    expect(within(undoToasts()[0]!).getByRole('button', { name: 'Undo deleting “middle”' })).toHaveAttribute('aria-keyshortcuts', 'u');
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['top', 'bottom']));

    await undo(user);
    await waitFor(() => expect(shownTitles()).toEqual(['top', 'middle', 'bottom']));
    expect(screen.getByRole('checkbox', { name: 'Mark “middle” as not completed' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “middle” as not completed' })).toHaveFocus());
    await waitFor(async () => expect(await fetchTodos()).toEqual(before)); // same id, flags and timestamps
    await waitFor(() => expect(undoToasts()).toHaveLength(0));
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']); // no sound for the way back
  });

  it('gives each delete its own toast naming its task; each Undo restores exactly its task, U the newest', async () => {
    const user = userEvent.setup();
    for (const title of ['first', 'second', 'third']) await addTodo(title);
    renderPage(<TaskListPage />);
    await screen.findByText('first');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Delete “first”' }));
    await user.click(screen.getByRole('button', { name: 'Delete “second”' }));
    await waitFor(() => expect(undoToasts()).toHaveLength(2));
    // The older delete's Undo brings back "first" only.
    await user.click(screen.getByRole('button', { name: 'Undo deleting “first”' }));
    await user.hover(screen.getByRole('heading', { level: 1 }));
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['third', 'first']));
    expect(screen.getByRole('button', { name: 'Undo deleting “second”' })).toBeInTheDocument();
    // U, anywhere but in a field, undoes the newest offer still open: "second".
    await user.keyboard('u');
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['third', 'second', 'first']));
    await waitFor(() => expect(undoToasts()).toHaveLength(0));
    // Typed in the new-task input, "u" is just a letter.
    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'u');
    expect(screen.getByRole('textbox', { name: 'New task' })).toHaveValue('u');
  });

  it('keeps the toast while its Undo has the focus, and lets it go 5 s after the focus leaves', async () => {
    const user = userEvent.setup();
    await addTodo('Held');
    renderPage(<TaskListPage />);
    await screen.findByText('Held');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Delete “Held”' }));
    const undoButton = await screen.findByRole('button', { name: 'Undo deleting “Held”' });
    await user.hover(screen.getByRole('heading', { level: 1 }));
    undoButton.focus();
    await sleep(UNDO_WINDOW_MS + 1000);
    expect(undoToasts()).toHaveLength(1);
    screen.getByRole('textbox', { name: 'New task' }).focus();
    await sleep(UNDO_WINDOW_MS - 1000);
    expect(undoToasts()).toHaveLength(1);
    await waitFor(() => expect(undoToasts()).toHaveLength(0), { timeout: 3000 });
  }, 30_000);

  it('offers Undo for 5 seconds', async () => {
    const user = userEvent.setup();
    await addTodo('Gone for good');
    renderPage(<TaskListPage />);
    await screen.findByText('Gone for good');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Delete “Gone for good”' }));
    await waitFor(() => expect(undoToasts()).toHaveLength(1));
    await sleep(UNDO_WINDOW_MS - 1000);
    expect(undoToasts()).toHaveLength(1);
    await waitFor(() => expect(undoToasts()).toHaveLength(0), { timeout: 3000 });
    expect(screen.getByText('No tasks')).toBeInTheDocument();
  }, 20_000);

  it('says why when Undo fails, and the task stays deleted', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTodo('Undo offline');
    renderPage(<TaskListPage />);
    await screen.findByText('Undo offline');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Delete “Undo offline”' }));
    await waitFor(() => expect(undoToasts()).toHaveLength(1));
    const backOnline = goOffline();
    try {
      await undo(user);
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByText('Undo offline')).not.toBeInTheDocument());
      expect(screen.getByText('No tasks')).toBeInTheDocument();
    } finally {
      backOnline();
    }
    expect(await fetchTodos()).toEqual([]);
  });

  it('shows the server\'s message when it refuses the restore (here: another device restored it first)', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Restored elsewhere');
    renderPage(<TaskListPage />);
    await screen.findByText('Restored elsewhere');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Delete “Restored elsewhere”' }));
    await waitFor(() => expect(undoToasts()).toHaveLength(1));
    await restoreTodo(todo._id);
    await undo(user);
    expect(await screen.findByText('This task can no longer be restored.')).toBeInTheDocument();
    // The list, fetched again, shows what the server holds: the task is back (restored by the other device).
    await waitFor(() => expect(shownTitles()).toEqual(['Restored elsewhere']));
  });
});
