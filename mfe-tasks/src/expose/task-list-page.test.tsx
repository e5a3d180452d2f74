import { addTodo, fetchTodos, login, logout, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { goOffline, playedSources, stubAudioPlay, stubDialog } from '../test/browser-stubs';
import TaskListPage from './task-list-page';
import { preloadQuickAdd } from '../features/todos/components/add-task-form';

// The quick-add parser in place before any test types, so its arrival never updates a form outside act().
beforeAll(() => preloadQuickAdd());

/**
 * axe measures icon ligatures on a canvas, which jsdom lacks (it logs "not implemented" and returns null):
 * the same null, without the log, so a passing run prints nothing.
 */
const quietCanvas = () => jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);

const input = () => screen.getByRole('textbox', { name: 'New task' });

describe('the task list page', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove(); // react-hot-toast keeps its toasts in a module store, shared by the tests of this file
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('greets the user by full name and congratulates on an empty list', async () => {
    renderPage(<TaskListPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your tasks…');
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Task Manager' })).toBeInTheDocument();
    expect(await screen.findByText('Hello, Ada Lovelace!')).toBeInTheDocument();
    expect(screen.getByText('All tasks conquered!')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Task Manager' })).toBeInTheDocument();
    expect(input()).toHaveAttribute('placeholder', 'What would you like to accomplish?');
    expect(document.querySelector('img')).toHaveAttribute('src', '/svgs/to-do-list-animate.svg');
  });

  it('adds a task: clears the input, keeps the focus in it, plays the added sound, toasts and shows the row', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Write the first program');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    // Added with the button, the next task is typed in the same input: a phone's keyboard stays open.
    expect(input()).toHaveFocus();

    expect(await screen.findByText('Task added successfully')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(input()).toHaveFocus();
    expect(playedSources(play)).toEqual(['/sounds/added.mp3']);
    const row = await screen.findByRole('listitem');
    expect(within(row).getByText('Write the first program')).toBeInTheDocument();
    expect(screen.getByText('You have 1 task left. Keep going!')).toBeInTheDocument();
    expect(screen.queryByText('No tasks')).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Write the first program']));
  });

  it('refuses an empty or blank title in the form, next to the input, without sending it', async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Already there');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Already there');
    const submit = screen.getByRole('button', { name: 'Add Task' });

    for (const blank of ['', '   ', '\u200B\u200B']) {
      await user.clear(input());
      if (blank) await user.type(input(), blank);
      await user.click(submit);

      const problem = await screen.findByRole('alert');
      expect(problem).toHaveTextContent('Enter a task before adding it.');
      expect(problem.tagName).toBe('P');
      expect(input()).toHaveAttribute('aria-invalid', 'true');
      expect(input().getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
      expect(input()).toHaveAccessibleDescription('Enter a task before adding it.');
      expect(input()).toHaveFocus();
    }

    // No request was made: no add mutation ran, nothing was logged or toasted, and the server's list is unchanged.
    expect(queryClient.getMutationCache().getAll()).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((t) => t._id)).toEqual([todo._id]));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);

    // Typing clears the message.
    await user.type(input(), 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-invalid');
    expect(input()).not.toHaveAttribute('aria-describedby');
  });

  it('caps the title at 500 characters with a counter from 400, and refuses a longer one in the form', async () => {
    const user = userEvent.setup();
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    expect(input()).toHaveAttribute('maxLength', '500');
    expect(input()).toHaveAttribute('dir', 'auto');

    fireEvent.change(input(), { target: { value: 'a'.repeat(399) } });
    expect(screen.queryByText('399/500')).not.toBeInTheDocument();
    fireEvent.change(input(), { target: { value: 'a'.repeat(400) } });
    const counter = screen.getByText('400/500');
    expect(input().getAttribute('aria-describedby')?.split(' ')).toContain(counter.id);

    // maxLength stops typing, not a value set by script or a paste the browser lets through: the form checks too.
    fireEvent.change(input(), { target: { value: 'a'.repeat(501) } });
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A task can be at most 500 characters long.');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(queryClient.getMutationCache().getAll()).toEqual([]);
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });

  it('adds one task per submission: "Adding…" while pending, repeated clicks ignored, text typed meanwhile kept', async () => {
    const user = userEvent.setup();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Only once');

    const submit = screen.getByRole('button', { name: 'Add Task' });
    fireEvent.click(submit);
    fireEvent.click(submit);
    expect(await screen.findByRole('button', { name: 'Adding…' })).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(submit);
    fireEvent.change(input(), { target: { value: 'Only once and more' } });

    expect(await screen.findByText('Task added successfully')).toBeInTheDocument();
    await screen.findByText('Only once');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add Task' })).not.toHaveAttribute('aria-disabled'));
    expect(input()).toHaveValue('and more');
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Only once']));
  });

  it('keeps the text and says why when an add cannot reach the server (offline)', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Written on the train');

    const backOnline = goOffline();
    try {
      await user.click(screen.getByRole('button', { name: 'Add Task' }));
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
    } finally {
      backOnline();
    }
    expect(input()).toHaveValue('Written on the train');
    expect(input()).not.toHaveAttribute('aria-invalid'); // not the title's fault: a toast, not a message at the input
    expect(input()).not.toHaveAccessibleDescription();
    expect(play).not.toHaveBeenCalled();
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });

  it('shows an error with "Try again" when the list cannot be fetched, and recovers', async () => {
    const user = userEvent.setup();
    const account = await signUpNewUser('Ada Lovelace');
    await logout();
    renderPage(<TaskListPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load your tasks.');

    await login({ email: account.email, password: account.password });
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('has no serious or critical accessibility violations', async () => {
    const user = userEvent.setup();
    const { container } = renderPage(<TaskListPage />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Check the contrast');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    await screen.findByRole('listitem');

    quietCanvas();
    const { violations } = await axe.run(container);
    const severe = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(severe.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    // Every control can be reached with the keyboard and has a name.
    for (const control of [...container.querySelectorAll('button, input')]) {
      expect(control).not.toHaveAttribute('tabindex', '-1');
      expect(control).toHaveAccessibleName();
    }
  });

  it('stays free of serious or critical violations with filters, bulk actions, an open editor and the shortcuts dialog', async () => {
    const user = userEvent.setup();
    const restoreDialog = stubDialog();
    try {
      const { todo } = await addTodo('Finished');
      await updateTodo(todo._id, { completed: true });
      await addTodo('Still open');
      const { container } = renderPage(<TaskListPage />);
      await screen.findByText('Still open');
      await waitFor(() => screen.getAllByRole('listitem').forEach((row) => expect(row).not.toHaveAttribute('inert')), { timeout: 3000 });
      expect(screen.getByRole('navigation', { name: 'Filter tasks' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Clear completed' })).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Edit “Still open”' }));
      await user.clear(screen.getByRole('textbox', { name: 'Edit “Still open”' }));
      await user.keyboard('{Enter}'); // the refusal shows next to the field
      expect(screen.getByRole('alert')).toBeInTheDocument();
      quietCanvas();
      const severe = async () =>
        (await axe.run(container)).violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id}: ${violation.help}`);
      expect(await severe()).toEqual([]);
      await user.keyboard('{Escape}');

      await user.keyboard('?');
      expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
      expect(await severe()).toEqual([]);
      for (const control of [...container.querySelectorAll('button, input, a')]) expect(control).toHaveAccessibleName();
    } finally {
      restoreDialog();
    }
  });
});
