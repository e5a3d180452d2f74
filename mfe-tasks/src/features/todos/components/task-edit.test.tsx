import { addTodo, deleteTodo, fetchTodos } from '@tm/api-client';
import { TODO_TITLE_EDIT_EMPTY_MESSAGE } from '@tm/contracts';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, restoreMatchMedia, stubAudioPlay, stubMatchMedia } from '../../../test/browser-stubs';
import { allRowsEntered, rowOf, sleep, toastsSaying } from '../../../test/page-helpers';
import { DOUBLE_CLICK_MS, SMALL_SCREEN_QUERY } from '../constants';

/** The title's text field, named like the row's other controls: Edit “title”. */
const field = () => screen.getByRole('textbox', { name: /^Edit “/ });
const updates = (queryClient: { getMutationCache: () => { getAll: () => unknown[] } }) => queryClient.getMutationCache().getAll().length;

describe('editing a title in place (docs/PRODUCT.md §10.11.1)', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    // A person's first press on the page fetches the editor (issue #17: off the first load); it is in by the
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
    expect(screen.getByText('Buy oat milk', { selector: 'label' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^Edit “/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit “Buy oat milk”' })).toHaveFocus();
    expect(screen.getByRole('checkbox', { name: 'Mark “Buy oat milk” as completed' })).not.toBeChecked();

    expect(await screen.findByText('Task updated successfully')).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Buy oat milk']));
    expect(updates(queryClient)).toBe(1);
    expect(play).not.toHaveBeenCalled();
  });

  it('edits on a double click of the title without ticking it; a single click still ticks the box', async () => {
    const user = userEvent.setup();
    await addTodo('Walk the dog');
    const { queryClient } = renderPage(<TaskListPage />);
    await screen.findByText('Walk the dog');
    await allRowsEntered();
    const checkbox = screen.getByRole('checkbox', { name: 'Mark “Walk the dog” as completed' });

    await user.dblClick(screen.getByText('Walk the dog'));
    expect(field()).toHaveValue('Walk the dog');
    expect(field()).toHaveFocus();
    await sleep(DOUBLE_CLICK_MS + 100);
    expect(checkbox).not.toBeChecked();
    expect(updates(queryClient)).toBe(0);

    // Escape puts the old title back; nothing is sent; the focus goes to the row's checkbox.
    await user.type(field(), ' later');
    await user.keyboard('{Escape}');
    expect(screen.getByText('Walk the dog', { selector: 'label' })).toBeInTheDocument();
    expect(checkbox).toHaveFocus();
    expect(updates(queryClient)).toBe(0);

    // A single click on the title is the label's: it ticks, once the double-click interval has passed.
    await user.click(screen.getByText('Walk the dog'));
    await waitFor(() => expect(checkbox).toBeChecked());
    await waitFor(async () => expect((await fetchTodos())[0]?.completed).toBe(true));
    expect(screen.queryByRole('textbox', { name: /^Edit “/ })).not.toBeInTheDocument();
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
    expect(screen.getByText('Read a book twice', { selector: 'label' })).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Read a book twice'));
    await waitFor(() => expect(queryClient.isMutating()).toBe(0));
    expect(updates(queryClient)).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Edit “Read a book twice”' }));
    await user.type(field(), '  '); // only white space added: the same title once trimmed
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Edit “Read a book twice”' }));
    fireEvent.blur(field());
    expect(screen.getByText('Read a book twice', { selector: 'label' })).toBeInTheDocument();
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
    expect(screen.getByText('Keep this title', { selector: 'label' })).toBeInTheDocument();
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
      await waitFor(() => expect(screen.getByText('Offline rename', { selector: 'label' })).toBeInTheDocument());
      expect(screen.queryByText('Offline rename now')).not.toBeInTheDocument();
    } finally {
      backOnline();
    }
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Offline rename']);
  });

  it('shows the server\'s message when it refuses the rename (the task was deleted elsewhere)', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { todo } = await addTodo('Deleted elsewhere');
    renderPage(<TaskListPage />);
    await screen.findByText('Deleted elsewhere');
    await allRowsEntered();
    await deleteTodo(todo._id);

    await user.click(screen.getByRole('button', { name: 'Edit “Deleted elsewhere”' }));
    await user.type(field(), ' too{Enter}');
    expect(await screen.findByText('Task not found')).toBeInTheDocument();
    expect(toastsSaying('Task not found')).toHaveLength(1);
    expect(screen.queryByText('Deleted elsewhere too')).not.toBeInTheDocument();
    expect(screen.queryByText('Task updated successfully')).not.toBeInTheDocument();
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
      expect(screen.getByText('Pack the bags tonight', { selector: 'label' })).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for “Pack the bags tonight”' })).toHaveFocus());
      await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe('Pack the bags tonight'));
    });
  });
});
