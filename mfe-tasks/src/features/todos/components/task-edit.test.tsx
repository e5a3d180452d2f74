import { addTodo, deleteTodo, fetchTodos, todosQuery } from '@tm/api-client';
import { TODO_TITLE_EDIT_EMPTY_MESSAGE } from '@tm/contracts';
import { FakeEventSource, renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, restoreMatchMedia, stubAudioPlay, stubMatchMedia } from '../../../test/browser-stubs';
import { allRowsEntered, rowOf, shownTitles, sleep, toastsSaying } from '../../../test/page-helpers';
import { SMALL_SCREEN_QUERY } from '../constants';

/** The title's text field, named like the row's other controls: Edit “title”. */
const field = () => screen.getByRole('textbox', { name: /^Edit “/ });
const updates = (queryClient: { getMutationCache: () => { getAll: () => unknown[] } }) => queryClient.getMutationCache().getAll().length;

describe('editing a title in place (docs/PRODUCT.md §10.11.1)', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    // A person's first press on the page fetches the editor (off the first load); it is in by the
    // time they edit. The tests edit right after their first press, so they make that press first.
    fireEvent.pointerDown(document.body);
    await sleep(0);
  });
  afterEach(() => jest.restoreAllMocks());

  it('edits with the row\'s Edit button: Enter saves at once, the server has it, the focus goes back to the button', async () => {
    const user = userEvent.setup();
    await addTodo('Buy milk');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Buy milk');
    await allRowsEntered();

    const edit = within(rowOf('Buy milk')).getByRole('button', { name: 'Edit “Buy milk”' });
    expect(edit).toHaveAttribute('title', 'Edit “Buy milk”');
    await user.click(edit);
    expect(field()).toHaveValue('Buy milk');
    expect(field()).toHaveAccessibleName('Edit “Buy milk”');
    expect(field()).toHaveFocus();
    expect(field()).toHaveAttribute('maxLength', '500');
    expect(field()).toHaveAttribute('dir', 'auto');

    await user.clear(field());
    await user.type(field(), '  Buy oat milk  {Enter}');
    // Optimistic: the new (trimmed) title shows before the server answered.
    expect(screen.getByText('Buy oat milk', { selector: '.tasks-item__title' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^Edit “/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit “Buy oat milk”' })).toHaveFocus();
    expect(screen.getByRole('checkbox', { name: 'Mark “Buy oat milk” as completed' })).not.toBeChecked();

    expect(await screen.findByText('Title changed')).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Buy oat milk']));
    expect(updates(queryClient)).toBe(1);
    expect(play).not.toHaveBeenCalled();
  });

  it('opens the editor at a click (or tap) on the title, never ticking it; a double click keeps it open', async () => {
    const user = userEvent.setup();
    await addTodo('Walk the dog');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Walk the dog');
    await allRowsEntered();
    const checkbox = screen.getByRole('checkbox', { name: 'Mark “Walk the dog” as completed' });

    await user.click(screen.getByText('Walk the dog'));
    expect(field()).toHaveValue('Walk the dog');
    expect(field()).toHaveFocus();
    await sleep(400); // no tick waits behind the click
    expect(checkbox).not.toBeChecked();
    expect(updates(queryClient)).toBe(0);

    // Escape puts the old title back; nothing is sent; the focus goes to the row's checkbox.
    await user.type(field(), ' later');
    await user.keyboard('{Escape}');
    expect(screen.getByText('Walk the dog', { selector: '.tasks-item__title' })).toBeInTheDocument();
    expect(checkbox).toHaveFocus();
    expect(updates(queryClient)).toBe(0);

    // A double click opens it at its first click; its second click lands where the title was, in the field
    // (as a browser places it; e2e/src/phone-tasks.e2e.test.ts double-clicks in Chromium): it stays open.
    await user.click(screen.getByText('Walk the dog'));
    await user.dblClick(field());
    expect(field()).toHaveFocus();
    await sleep(400);
    expect(field()).toBeInTheDocument();
    expect(checkbox).not.toBeChecked();
    expect(updates(queryClient)).toBe(0);
    await user.keyboard('{Escape}');

    // Only the checkbox (and the box around it) ticks.
    await user.click(checkbox.closest('label')!);
    await waitFor(() => expect(checkbox).toBeChecked());
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));
    expect(screen.queryByRole('textbox', { name: /^Edit “/ })).not.toBeInTheDocument();
  });

  it('is a text area that keeps a title on one line: Enter and Shift+Enter save, a pasted line break is a space', async () => {
    const user = userEvent.setup();
    await addTodo('Plan the trip');
    renderPage(<TaskListPage />);
    await screen.findByText('Plan the trip');
    await allRowsEntered();

    await user.click(screen.getByText('Plan the trip'));
    expect(field().tagName).toBe('TEXTAREA'); // it grows with a long title (measured in e2e/src/phone-tasks.e2e.test.ts)
    expect(field()).toHaveAttribute('rows', '1');
    await user.type(field(), ' to{Shift>}{Enter}{/Shift}');
    expect(screen.getByText('Plan the trip to', { selector: '.tasks-item__title' })).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Plan the trip to'));

    await user.click(screen.getByText('Plan the trip to'));
    await user.paste(' Rome\nand\r\nNaples');
    expect(field()).toHaveValue('Plan the trip to Rome and Naples');
    await user.keyboard('{Enter}');
    await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Plan the trip to Rome and Naples'));
  });

  it('saves when the field is left; an unchanged title sends nothing', async () => {
    const user = userEvent.setup();
    await addTodo('Read a book');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Read a book');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Edit “Read a book”' }));
    await user.type(field(), ' twice');
    await user.click(screen.getByRole('heading', { name: 'Your tasks' })); // somewhere else
    expect(screen.getByText('Read a book twice', { selector: '.tasks-item__title' })).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Read a book twice'));
    await waitFor(() => expect(queryClient.isMutating()).toBe(0));
    expect(updates(queryClient)).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Edit “Read a book twice”' }));
    await user.type(field(), '  '); // only white space added: the same title once trimmed
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Edit “Read a book twice”' }));
    fireEvent.blur(field());
    expect(screen.getByText('Read a book twice', { selector: '.tasks-item__title' })).toBeInTheDocument();
    expect(updates(queryClient)).toBe(1);
  });

  it('refuses an empty or too long title next to the field, keeps the task and sends nothing', async () => {
    const user = userEvent.setup();
    await addTodo('Keep this title');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Keep this title');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'Edit “Keep this title”' }));
    for (const blank of ['', '   ', '\u200B']) {
      await user.clear(field());
      if (blank) await user.type(field(), blank);
      await user.keyboard('{Enter}');
      const problem = screen.getByRole('alert');
      expect(problem).toHaveTextContent(TODO_TITLE_EDIT_EMPTY_MESSAGE);
      expect(field()).toHaveAttribute('aria-invalid', 'true');
      expect(field()).toHaveAccessibleDescription(TODO_TITLE_EDIT_EMPTY_MESSAGE);
      expect(field()).toHaveFocus();
    }
    // Leaving the field does not save an empty title either: the field and its message stay.
    fireEvent.blur(field());
    expect(screen.getByRole('alert')).toHaveTextContent(TODO_TITLE_EDIT_EMPTY_MESSAGE);

    fireEvent.change(field(), { target: { value: 'a'.repeat(501) } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // typing clears the message
    await user.click(field());
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('A task can be at most 500 characters long.');

    await user.keyboard('{Escape}');
    expect(screen.getByText('Keep this title', { selector: '.tasks-item__title' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit “Keep this title”' })).toHaveFocus();
    expect(updates(queryClient)).toBe(0);
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Keep this title']);
  });

  it('puts the old title back and says why when the save cannot reach the server', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTodo('Offline rename');
    renderPage(<TaskListPage />);
    await screen.findByText('Offline rename');
    await allRowsEntered();

    const backOnline = goOffline();
    try {
      await user.click(screen.getByRole('button', { name: 'Edit “Offline rename”' }));
      await user.type(field(), ' now{Enter}');
      expect(await screen.findByText("You're offline. Check your connection and try again.")).toBeInTheDocument();
      await waitFor(() => expect(screen.getByText('Offline rename', { selector: '.tasks-item__title' })).toBeInTheDocument());
      expect(screen.queryByText('Offline rename now')).not.toBeInTheDocument();
    } finally {
      backOnline();
    }
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Offline rename']);
  });

  it('keeps the typed title when the save finds the task deleted elsewhere, and adds it as a new task', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await addTodo('Older');
    const { todo } = await addTodo('Deleted elsewhere');
    renderPage(<TaskListPage />);
    await screen.findByText('Deleted elsewhere');
    await allRowsEntered();
    await deleteTodo(todo._id); // on another device, with no live stream here: the save finds out
    await user.click(screen.getByRole('button', { name: 'Edit “Deleted elsewhere”' }));
    await user.type(field(), ' too{Enter}');

    expect(await screen.findByText('This task was deleted on another device.')).toBeInTheDocument();
    expect(field()).toHaveValue('Deleted elsewhere too');
    expect(field()).toHaveAccessibleDescription('This task was deleted on another device.');
    expect(toastsSaying('Task not found')).toHaveLength(0); // the row says it, where the person looks
    expect(shownTitles()).toEqual(['Deleted elsewhere too', 'Older']); // in its place, with the text
    expect(screen.getByRole('checkbox', { name: 'Mark “Deleted elsewhere” as completed' })).toBeDisabled();
    expect(within(rowOf('Older')).getByRole('button', { name: 'Edit “Older”' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add as new task' }));
    expect(await screen.findByText('Task added successfully')).toBeInTheDocument();
    await waitFor(() => expect(shownTitles()).toEqual(['Deleted elsewhere too', 'Older']));
    expect(screen.queryByText('This task was deleted on another device.')).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((t) => t.title)).toEqual(['Deleted elsewhere too', 'Older']));
  });

  it('keeps the editor open with its text when the live stream takes the task away, and restores it with the change', async () => {
    const user = userEvent.setup();
    const uninstall = FakeEventSource.install();
    try {
      await addTodo('Older');
      const { todo } = await addTodo('Call the bank');
      const { queryClient } = renderPage(<TaskListPage />);
      await screen.findByText('Call the bank');
      await allRowsEntered();
      const source = await waitFor(() => {
        const latest = FakeEventSource.latest();
        if (!latest) throw new Error('no stream yet');
        return latest;
      });
      const cursor = BigInt(queryClient.getQueryData(todosQuery().queryKey)?.cursor ?? '0');

      await user.click(screen.getByText('Call the bank'));
      await user.type(field(), ' at 9');
      // Another device deletes it: the stream says so while the person is still typing.
      await deleteTodo(todo._id);
      await act(async () => {
        const id = String(cursor + 1n);
        source.emit('change', { id, origin: 'another-page', saved: [], removed: [todo._id] }, id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      expect(await screen.findByText('This task was deleted on another device.')).toBeInTheDocument();
      expect(field()).toHaveValue('Call the bank at 9');
      expect(field()).toHaveFocus();
      expect(screen.getByText('You have 1 task left. Keep going!')).toBeInTheDocument(); // it is not counted
      // Leaving the field saves nothing now: the choice is the person's.
      fireEvent.blur(field());
      expect(field()).toHaveValue('Call the bank at 9');

      await user.click(screen.getByRole('button', { name: 'Restore with my change' }));
      expect(await screen.findByText('Title changed')).toBeInTheDocument();
      await waitFor(() => expect(shownTitles()).toEqual(['Call the bank at 9', 'Older']));
      const restored = (await fetchTodos()).find((t) => t._id === todo._id);
      expect(restored).toMatchObject({ title: 'Call the bank at 9', createdAt: todo.createdAt });
    } finally {
      uninstall();
    }
  });

  describe('on a small screen', () => {
    beforeEach(() => stubMatchMedia([SMALL_SCREEN_QUERY]));
    afterEach(() => restoreMatchMedia());

    it('edits from the row\'s menu; the focus goes back to the menu button afterwards', async () => {
      const user = userEvent.setup();
      await addTodo('Pack the bags');
      renderPage(<TaskListPage />);
      const trigger = await screen.findByRole('button', { name: 'More actions for “Pack the bags”' });
      await allRowsEntered();

      await user.click(trigger);
      await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Edit' }));
      await waitFor(() => expect(field()).toHaveFocus());
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
      await user.type(field(), ' tonight{Enter}');
      expect(screen.getByText('Pack the bags tonight', { selector: '.tasks-item__title' })).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for “Pack the bags tonight”' })).toHaveFocus());
      await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Pack the bags tonight'));
    });
  });
});
