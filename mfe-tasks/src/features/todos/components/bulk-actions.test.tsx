import { addTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, stubAudioPlay, stubCanvas } from '../../../test/browser-stubs';
import { allRowsEntered, shownTitles, toastsSaying } from '../../../test/page-helpers';

const button = (name: string) => screen.getByRole('button', { name });
const checked = () => screen.getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked);
const bulkMutations = (queryClient: { getMutationCache: () => { getAll: () => { options: { mutationKey?: readonly unknown[] } }[] } }) =>
  queryClient
    .getMutationCache()
    .getAll()
    .map((mutation) => mutation.options.mutationKey?.at(-1));

describe('the bulk actions (docs/PRODUCT.md §10.11.3)', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => jest.restoreAllMocks());

  it('marks all complete in one request, at once, with the server\'s message and no celebration; then offers "Mark all active"', async () => {
    const user = userEvent.setup();
    for (const title of ['one', 'two', 'three']) await addTodo(title);
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('three');
    await allRowsEntered();
    expect(screen.queryByRole('button', { name: 'Clear completed' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all active' })).not.toBeInTheDocument();

    const markAll = button('Mark all complete');
    fireEvent.click(markAll);
    fireEvent.click(markAll); // a second click while it is on its way is ignored
    await waitFor(() => expect(checked()).toEqual([true, true, true]));
    expect(await screen.findByText('3 tasks marked complete')).toBeInTheDocument();
    expect(bulkMutations(queryClient)).toEqual(['complete-all']);
    expect(markAll).toHaveTextContent('Mark all active'); // the same button, so the focus stays on it
    expect(button('Clear completed')).toBeInTheDocument();
    expect(screen.getByText('Every task is done. Well played!')).toBeInTheDocument();
    expect(play).not.toHaveBeenCalled();
    expect(document.querySelector('.tasks-confetti')).toBeNull();
    await waitFor(async () => expect((await fetchTodos()).every((todo) => todo.completed)).toBe(true));

    await user.click(button('Mark all active'));
    await waitFor(() => expect(checked()).toEqual([false, false, false]));
    expect(await screen.findByText('3 tasks marked active')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear completed' })).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).some((todo) => todo.completed)).toBe(false));
  });

  it('clears the completed tasks in one request, with the server\'s message; the focus moves on', async () => {
    const user = userEvent.setup();
    const { todo: a } = await addTodo('done a');
    await addTodo('open');
    const { todo: b } = await addTodo('done b');
    for (const todo of [a, b]) await updateTodo(todo._id, { completed: true });
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('open');
    await allRowsEntered();

    await user.click(button('Clear completed'));
    await waitFor(() => expect(shownTitles()).toEqual(['open']));
    expect(await screen.findByText('2 completed tasks cleared')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear completed' })).not.toBeInTheDocument();
    expect(button('Mark all complete')).toHaveFocus();
    expect(bulkMutations(queryClient)).toEqual(['clear-completed']);
    expect(play).not.toHaveBeenCalled();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['open']));

    // With nothing left at all, the focus goes to the new-task input.
    await user.click(button('Mark all complete'));
    await waitFor(() => expect(button('Clear completed')).toBeInTheDocument());
    await user.click(button('Clear completed'));
    await waitFor(() => expect(screen.getByText('No tasks')).toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'New task' })).toHaveFocus();
  });

  it('puts everything back and says why when a bulk action fails', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('done');
    await addTodo('open');
    await updateTodo(todo._id, { completed: true });
    renderPage(<TaskListPage />);
    await screen.findByText('open');
    await allRowsEntered();

    const backOnline = goOffline();
    try {
      await user.click(button('Mark all complete'));
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      await waitFor(() => expect(checked()).toEqual([false, true]));
      toast.remove();

      await user.click(button('Clear completed'));
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      await waitFor(() => expect(shownTitles()).toEqual(['open', 'done']));
      expect(toastsSaying("You're offline. Check your connection and try again.")).toHaveLength(1);
    } finally {
      backOnline();
    }
    expect((await fetchTodos()).map((t) => [t.title, t.completed])).toEqual([
      ['open', false],
      ['done', true],
    ]);
  });

  it('undoes "Clear completed" and "Mark all complete" from their toasts, every task exactly as before', async () => {
    const user = userEvent.setup();
    const { todo: a } = await addTodo('done a');
    await addTodo('open');
    const { todo: b } = await addTodo('done b');
    for (const todo of [a, b]) await updateTodo(todo._id, { completed: true });
    const before = await fetchTodos();
    renderPage(<TaskListPage />);
    await screen.findByText('open');
    await allRowsEntered();

    await user.click(button('Clear completed'));
    const clearedUndo = await screen.findByRole('button', { name: 'Undo clearing 2 tasks' });
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['open']));
    await user.click(clearedUndo);
    await waitFor(() => expect(shownTitles()).toEqual(['done b', 'open', 'done a']));
    expect(await screen.findByText('2 tasks restored')).toBeInTheDocument();
    expect(await fetchTodos()).toEqual(before); // ids, flags, completion times and order

    await user.click(button('Mark all complete'));
    await screen.findByRole('button', { name: 'Undo marking complete 1 task' });
    await waitFor(async () => expect((await fetchTodos()).every((todo) => todo.completed)).toBe(true));
    await user.hover(screen.getByRole('heading', { level: 1 }));
    await user.keyboard('u'); // the same Undo, from the keyboard
    await waitFor(async () => expect(await fetchTodos()).toEqual(before));
    await waitFor(() => expect(checked()).toEqual([true, false, true]));
  });

  it('are not offered under a Priority filter or a search: they would act on tasks the list hides', async () => {
    await addTodo('one');
    await addTodo('two');
    await updateTodo((await fetchTodos())[0]?._id ?? '', { priority: 1 });
    const narrowed = renderPage(<TaskListPage />, { route: '/?priority=1' });
    await screen.findByText('Clear filters');
    await waitFor(() => expect(shownTitles()).toEqual(['two']));
    expect(screen.queryByRole('button', { name: 'Mark all complete' })).not.toBeInTheDocument();

    fireEvent.click(button('Clear filters'));
    await waitFor(() => expect(shownTitles()).toEqual(['two', 'one']));
    expect(button('Mark all complete')).toBeInTheDocument();
    narrowed.unmount();

    renderPage(<TaskListPage />, { route: '/?q=one' });
    expect(await screen.findByText('1 task matches “one”.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all complete' })).not.toBeInTheDocument();
  });
});
