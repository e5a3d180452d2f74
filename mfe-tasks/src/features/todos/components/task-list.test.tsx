import { addTodo, deleteTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { playedSources, stubAudioPlay, stubCanvas } from '../../../test/browser-stubs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rowOf = (title: string) => {
  const row = screen.getByText(title).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const confettiCanvas = () => document.querySelector('.tasks-confetti canvas');

describe('the task rows', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => jest.restoreAllMocks());

  it('completes a task at once, strikes it through, plays the success sound and fires confetti for 3 s', async () => {
    await addTodo('Feed the cat');
    renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark "Feed the cat" as completed' });
    expect(checkbox).not.toBeChecked();

    fireEvent.click(checkbox);
    expect(checkbox).toBeChecked(); // in the click's own render, before any answer or cache tick
    expect(checkbox).toHaveAccessibleName('Mark "Feed the cat" as not completed');
    expect(screen.getByText('Feed the cat')).toHaveClass('tasks-item__title--completed');
    expect(playedSources(play)).toEqual(['/sounds/success.mp3']);
    const overlay = confettiCanvas()?.parentElement;
    expect(overlay).toHaveAttribute('aria-hidden', 'true');
    expect(overlay).toHaveStyle({ position: 'fixed', pointerEvents: 'none' });
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));

    await act(() => sleep(2000));
    expect(confettiCanvas()).toBeInTheDocument();
    await waitFor(() => expect(confettiCanvas()).not.toBeInTheDocument(), { timeout: 1500 });
    expect(screen.getByText('Every task is done. Well played!')).toBeInTheDocument();
  });

  it('un-completes a task without sound or confetti', async () => {
    const { todo } = await addTodo('Water the plants');
    await updateTodo(todo._id, { completed: true });
    renderPage(<TaskListPage />);

    const checkbox = await screen.findByRole('checkbox', { name: 'Mark "Water the plants" as not completed' });
    fireEvent.click(checkbox);
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleName('Mark "Water the plants" as completed');
    expect(screen.getByText('Water the plants')).not.toHaveClass('tasks-item__title--completed');
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(false));
    expect(play).not.toHaveBeenCalled();
    expect(confettiCanvas()).toBeNull();
  });

  it('pins a task: it moves first, is highlighted and says so to screen readers', async () => {
    const user = userEvent.setup();
    await addTodo('Older task');
    await addTodo('Newer task');
    renderPage(<TaskListPage />);
    await screen.findByText('Older task');
    expect(screen.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Newer task', 'Older task']);

    await addTodo('Added elsewhere'); // the refetch after the update brings it in

    await user.click(within(rowOf('Older task')).getByRole('button', { name: 'Pin task' }));
    expect(screen.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Older taskPinned', 'Newer task']);
    expect(rowOf('Older task')).toHaveClass('tasks-item--pinned');
    expect(within(rowOf('Older task')).getByRole('button', { name: 'Unpin task' })).toHaveAttribute('aria-pressed', 'true');
    expect(rowOf('Newer task')).not.toHaveClass('tasks-item--pinned');
    expect(await screen.findByText('Added elsewhere')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Older taskPinned', 'Added elsewhere', 'Newer task']);
    expect((await fetchTodos()).map((t) => [t.title, t.isPinned])).toEqual([
      ['Older task', true],
      ['Added elsewhere', false],
      ['Newer task', false],
    ]);
  });

  it('deletes a task: plays the deleted sound, removes the row and keeps focus in the list', async () => {
    const user = userEvent.setup();
    await addTodo('Throw me away');
    renderPage(<TaskListPage />);
    await screen.findByText('Throw me away');
    const row = rowOf('Throw me away');

    await user.click(within(row).getByRole('button', { name: 'Delete task' }));
    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    expect(screen.getByRole('heading', { name: 'Your tasks' })).toHaveFocus();
    await waitForElementToBeRemoved(row);
    expect(screen.getByText('No tasks')).toBeInTheDocument();
    expect(await fetchTodos()).toEqual([]);
  });

  it('only logs a failed delete (no toast)', async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Already gone');
    renderPage(<TaskListPage />);
    await screen.findByText('Already gone');
    const row = rowOf('Already gone');
    await deleteTodo(todo._id);

    await user.click(within(row).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Deleting the task failed', expect.objectContaining({ response: expect.objectContaining({ status: 404 }) })));
    await waitForElementToBeRemoved(row); // the refetch agrees with the server: it is gone
    expect(screen.queryByText('Task not found')).not.toBeInTheDocument();
  });

  it('rolls an optimistic tick back and says why when the server refuses it', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Deleted elsewhere');
    renderPage(<TaskListPage />);
    const checkbox = await screen.findByRole('checkbox', { name: 'Mark "Deleted elsewhere" as completed' });
    await deleteTodo(todo._id); // behind the page's back: the update will get a 404

    await user.click(checkbox);
    await waitFor(() => expect(checkbox).toBeChecked()); // optimistic: before the server answered
    expect(await screen.findByText('Task not found')).toBeInTheDocument();
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleName('Mark "Deleted elsewhere" as completed');
  });
});
