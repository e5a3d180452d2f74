import { addTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, playedSources, stubAudioPlay, stubCanvas } from '../../../test/browser-stubs';
import { allRowsEntered, countFetches, rowOf, signedInWithCelebrationStubs, sleep, tickToasts } from '../../../test/page-helpers';

// The cache follows the server's answers (no refetch of the whole list after an action), and the
// list is windowed: only the rows near the window are in the DOM, in the spec's order, each saying its place.

/** The rows in the DOM, top to bottom by their place in the list. */
const renderedRows = () =>
  screen
    .getAllByRole('listitem')
    .map((row) => ({ title: row.querySelector('.tasks-item__title')?.textContent, position: Number(row.getAttribute('aria-posinset')), size: Number(row.getAttribute('aria-setsize')) }))
    .sort((a, b) => a.position - b.position);

/** jsdom has no scrolling: the window's offset is set by hand and announced, as a browser would. */
function stubWindowScroll(): () => void {
  const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(((options: ScrollToOptions) => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: options.top ?? 0 });
    window.dispatchEvent(new Event('scroll'));
  }) as typeof window.scrollTo);
  return () => {
    scrollTo.mockRestore();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  };
}

describe('the list after an action (the answer updates the cache)', () => {
  signedInWithCelebrationStubs();

  it('ticks, pins, renames and adds without fetching the list again, showing the server\'s task', async () => {
    const user = userEvent.setup();
    await addTodo('Older task');
    await addTodo('Newer task');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Older task');
    await allRowsEntered();
    const fetches = countFetches(queryClient);

    await user.click(screen.getByRole('checkbox', { name: 'Mark “Older task” as completed' }));
    await waitFor(() => expect(tickToasts()).toHaveLength(1));
    await user.click(within(rowOf('Older task')).getByRole('button', { name: 'Pin “Older task”' }));
    await user.type(screen.getByPlaceholderText('What would you like to accomplish?'), 'Brand new{Enter}');
    await screen.findByText('Brand new');
    await sleep(500);

    expect(fetches()).toBe(0);
    // The cache holds exactly what the server holds: the answers were put in as they came.
    const server = await fetchTodos();
    const cached = queryClient.getQueryData<{ todos: { _id: string; completed: boolean; isPinned: boolean; updatedAt: string }[] }>(['todos'])!.todos;
    const byId = (list: typeof cached) => Object.fromEntries(list.map((t) => [t._id, [t.completed, t.isPinned, t.updatedAt]]));
    expect(byId(cached)).toEqual(byId(server));
    expect(screen.getAllByRole('listitem').map((row) => row.querySelector('.tasks-item__title')?.textContent)).toEqual(['Older task', 'Brand new', 'Newer task']);
  });

  it('rolls a refused tick back from its snapshot, without fetching the list', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTodo('Stay active');
    const { queryClient } = renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark “Stay active” as completed' });
    await allRowsEntered();
    const fetches = countFetches(queryClient);

    const backOnline = goOffline();
    try {
      fireEvent.click(checkbox);
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Stay active” as completed' })).not.toBeChecked());
      expect(queryClient.getQueryData<{ todos: { completed: boolean }[] }>(['todos'])!.todos[0]!.completed).toBe(false);
      await sleep(300);
      expect(fetches()).toBe(0);
    } finally {
      backOnline();
    }
  });
});

describe('a long list, windowed', () => {
  const COUNT = 150;
  let restoreScroll: () => void;
  beforeAll(async () => {
    await signUpNewUser('Long List');
    for (let i = 1; i <= COUNT; i += 1) {
      const { todo } = await addTodo(`task ${i}`);
      if (i === 40) await updateTodo(todo._id, { isPinned: true });
    }
  }, 120_000);
  beforeEach(() => {
    toast.remove();
    stubAudioPlay();
    stubCanvas();
    restoreScroll = stubWindowScroll();
  });
  afterEach(() => {
    restoreScroll();
    jest.restoreAllMocks();
  });

  it('renders only a window of rows, in the spec\'s order, each with its place in the whole list', async () => {
    renderPage(<TaskListPage />);
    await screen.findByText('task 40');
    const rows = renderedRows();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows.slice(0, 4)).toEqual([
      { title: 'task 40', position: 1, size: COUNT },
      { title: `task ${COUNT}`, position: 2, size: COUNT },
      { title: `task ${COUNT - 1}`, position: 3, size: COUNT },
      { title: `task ${COUNT - 2}`, position: 4, size: COUNT },
    ]);
    expect(screen.queryByText('task 1')).not.toBeInTheDocument();
    // The list is as tall as every row, so the page scrolls as if they were all there.
    expect(parseFloat(screen.getByRole('list').style.height)).toBeGreaterThan(COUNT * 40);
  });

  it('brings a row far down by scrolling, and reaches the last and first rows by keyboard', async () => {
    renderPage(<TaskListPage />);
    await screen.findByText('task 40');
    await allRowsEntered();

    act(() => window.scrollTo({ top: parseFloat(screen.getByRole('list').style.height) }));
    await screen.findByText('task 1');
    expect(renderedRows().at(-1)).toEqual({ title: 'task 1', position: COUNT, size: COUNT });
    // The top rows left the window (a frame later: they leave without the exit animation of a deleted task).
    await waitFor(() => expect(screen.queryByText('task 40')).not.toBeInTheDocument());

    act(() => window.scrollTo({ top: 0 }));
    const first = await screen.findByRole('checkbox', { name: 'Mark “task 40” as completed' });
    first.focus();
    fireEvent.keyDown(first, { key: 'End' });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “task 1” as completed' })).toHaveFocus());
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “task 2” as completed' })).toHaveFocus());
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “task 40” as completed' })).toHaveFocus());
  });

  it('ticks a row far down with its sound, and fetches nothing', async () => {
    const play = stubAudioPlay();
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('task 40');
    await allRowsEntered();
    const fetches = countFetches(queryClient);

    act(() => window.scrollTo({ top: parseFloat(screen.getByRole('list').style.height) }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Mark “task 3” as completed' }));
    await waitFor(() => expect(playedSources(play)).toEqual(['/sounds/success.mp3']));
    expect(screen.getByRole('checkbox', { name: 'Mark “task 3” as not completed' })).toBeChecked();
    expect(fetches()).toBe(0);
  });
});
