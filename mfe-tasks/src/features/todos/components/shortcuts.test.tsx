import { addTodo, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { stubAudioPlay, stubDialog } from '../../../test/browser-stubs';
import { address, allRowsEntered, RouterProbe } from '../../../test/page-helpers';

const input = () => screen.getByRole('textbox', { name: 'New task' });

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
      <textarea aria-label="Notes" />
      <div contentEditable suppressContentEditableWarning aria-label="Rich text" role="textbox" tabIndex={0} />
    </>
  );
}

describe('the keyboard shortcuts (docs/PRODUCT.md §10.11.6)', () => {
  let restoreDialog: () => void;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    restoreDialog = stubDialog();
  });
  afterEach(() => {
    restoreDialog();
    jest.restoreAllMocks();
  });

  it('n puts the focus in the new-task input, without typing the n', async () => {
    const user = userEvent.setup();
    await addTodo('A task');
    renderPage(<Page />);
    await screen.findByText('A task');
    await allRowsEntered();
    screen.getByRole('checkbox', { name: 'Mark “A task” as completed' }).focus();

    await user.keyboard('n');
    expect(input()).toHaveFocus();
    expect(input()).toHaveValue('');
    // In the input, n is a letter like any other.
    await user.keyboard('new');
    expect(input()).toHaveValue('new');
  });

  it('f moves to the next filter (All → Active → Completed → All), in the address, with the focus on it', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Done already');
    await updateTodo(todo._id, { completed: true });
    renderPage(<Page />);
    await screen.findByText('Done already');
    const filters = screen.getByRole('navigation', { name: 'Filter tasks' });

    await user.keyboard('f');
    expect(address()).toBe('/?filter=active');
    expect(within(filters).getByRole('link', { name: 'Active 0' })).toHaveFocus();
    expect(await screen.findByText('No active tasks. Nice work!')).toBeInTheDocument();
    await user.keyboard('f');
    expect(address()).toBe('/?filter=completed');
    expect(within(filters).getByRole('link', { name: 'Completed 1' })).toHaveAttribute('aria-current', 'page');
    await user.keyboard('f');
    expect(address()).toBe('/');
    expect(within(filters).getByRole('link', { name: 'All 1' })).toHaveFocus();
    // `/` is the search's (§10.22): it puts the focus in the field and leaves the filter as it is.
    await user.keyboard('/');
    expect(screen.getByRole('searchbox', { name: 'Search tasks' })).toHaveFocus();
    expect(address()).toBe('/');
  });

  it('? opens the list of shortcuts; Escape closes it and the focus goes back', async () => {
    const user = userEvent.setup();
    renderPage(<Page />);
    await screen.findByText('No tasks');
    const back = screen.getByRole('button', { name: 'Add Task' });
    back.focus();

    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveAttribute('open');
    const terms = within(dialog).getAllByRole('term').map((term) => term.textContent);
    const definitions = within(dialog).getAllByRole('definition').map((definition) => definition.textContent);
    expect(terms).toEqual(['N', '/', 'F', 'U', '?', '↑ or ↓', 'Home or End', 'Enter']);
    expect(definitions).toEqual([
      'Write a new task',
      'Search your tasks',
      'Show the next filter',
      'Undo the last delete, tick, clear or mark-all while its message shows',
      'Show these shortcuts',
      'On a task: go to the previous or next task',
      'On a task: go to the first or last task',
      'On a task: open its details (note and subtasks)',
    ]);
    // While it is open, the page's shortcuts rest.
    await user.keyboard('n');
    expect(input()).not.toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(back).toHaveFocus();

    // The Close button closes it too.
    await user.keyboard('?');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('fires none of them while typing in a field, or with Ctrl, Alt or Meta held', async () => {
    const user = userEvent.setup();
    renderPage(<Page />);
    await screen.findByText('No tasks');

    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('n/f?');
    expect(screen.getByRole('textbox', { name: 'Notes' })).toHaveValue('n/f?');
    expect(address()).toBe('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const rich = screen.getByRole('textbox', { name: 'Rich text' });
    fireEvent.keyDown(rich, { key: 'n' });
    fireEvent.keyDown(rich, { key: '/' });
    fireEvent.keyDown(rich, { key: 'f' });
    expect(input()).not.toHaveFocus();
    expect(address()).toBe('/');

    await user.type(input(), 'n/f?');
    expect(input()).toHaveValue('n/f?');
    expect(address()).toBe('/');

    input().blur();
    for (const modifier of ['ctrlKey', 'altKey', 'metaKey'] as const) {
      fireEvent.keyDown(document.body, { key: 'n', [modifier]: true });
      fireEvent.keyDown(document.body, { key: '/', [modifier]: true });
      fireEvent.keyDown(document.body, { key: 'f', [modifier]: true });
      fireEvent.keyDown(document.body, { key: '?', [modifier]: true });
    }
    expect(input()).not.toHaveFocus();
    expect(address()).toBe('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Shift alone is fine (? needs it on most keyboards).
    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
  });
});
