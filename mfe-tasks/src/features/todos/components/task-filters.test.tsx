import { addTodo, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { stubAudioPlay } from '../../../test/browser-stubs';
import { address, allRowsEntered, RouterProbe, shownTitles } from '../../../test/page-helpers';

const filters = () => screen.getByRole('navigation', { name: 'Filter tasks' });
const filterLink = (name: RegExp) => within(filters()).getByRole('link', { name });
const currentFilter = () => within(filters()).getByRole('link', { current: 'page' });

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
    </>
  );
}

/** Oldest first: "done 1" and "done 2" are completed, "pinned" is pinned and active. */
async function someTasks(): Promise<void> {
  const { todo: done1 } = await addTodo('done 1');
  await addTodo('open 1');
  const { todo: pinned } = await addTodo('pinned');
  const { todo: done2 } = await addTodo('done 2');
  await addTodo('open 2');
  for (const todo of [done1, done2]) await updateTodo(todo._id, { completed: true });
  await updateTodo(pinned._id, { isPinned: true });
}

describe('the filters (docs/PRODUCT.md §10.11.2)', () => {
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows All, Active and Completed with their counts; a choice filters the list and lives in the address', async () => {
    const user = userEvent.setup();
    await someTasks();
    renderPage(<Page />);
    await screen.findByText('open 2');
    await allRowsEntered();

    expect(within(filters()).getAllByRole('link').map((link) => link.textContent)).toEqual(['All 5', 'Active 3', 'Completed 2']);
    expect(currentFilter()).toHaveAccessibleName('All 5');
    expect(filterLink(/^All/)).toHaveAttribute('href', '/');
    expect(filterLink(/^Active/)).toHaveAttribute('href', '/?filter=active');
    expect(filterLink(/^Completed/)).toHaveAttribute('href', '/?filter=completed');
    // The spec's order in every filter: pinned first, then newest first.
    expect(shownTitles()).toEqual(['pinned', 'open 2', 'done 2', 'open 1', 'done 1']);

    await user.click(filterLink(/^Active/));
    expect(address()).toBe('/?filter=active');
    expect(currentFilter()).toHaveAccessibleName('Active 3');
    expect(shownTitles()).toEqual(['pinned', 'open 2', 'open 1']);

    await user.click(filterLink(/^Completed/));
    expect(address()).toBe('/?filter=completed');
    expect(shownTitles()).toEqual(['done 2', 'done 1']);

    // Back returns to the previous filter; "All" is the plain address.
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(address()).toBe('/?filter=active');
    expect(shownTitles()).toEqual(['pinned', 'open 2', 'open 1']);
    await user.click(filterLink(/^All/));
    expect(address()).toBe('/');
    expect(shownTitles()).toHaveLength(5);
    // Rows of another filter come in at once: nothing waits for a stagger.
    screen.getAllByRole('listitem').forEach((row) => expect(row).not.toHaveAttribute('inert'));
  });

  it('starts from the filter the address names (a reload, a shared link); an unknown one means All', async () => {
    await someTasks();
    const completed = renderPage(<Page />, { route: '/?filter=completed' });
    await screen.findByText('done 2');
    expect(currentFilter()).toHaveAccessibleName('Completed 2');
    expect(shownTitles()).toEqual(['done 2', 'done 1']);
    completed.unmount();

    renderPage(<Page />, { route: '/?filter=everything' });
    await screen.findByText('done 2');
    expect(currentFilter()).toHaveAccessibleName('All 5');
    expect(shownTitles()).toHaveLength(5);
  });

  it('says when a filter is empty, and "No tasks" when there are none at all', async () => {
    const user = userEvent.setup();
    const first = renderPage(<Page />, { route: '/?filter=active' });
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Filter tasks' })).not.toBeInTheDocument();
    first.unmount();

    await addTodo('The only one');
    renderPage(<Page />, { route: '/?filter=completed' });
    expect(await screen.findByText('No completed tasks yet.')).toBeInTheDocument();
    expect(screen.queryByText('No tasks')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('listitem')).toEqual([]);

    await user.click(filterLink(/^Active/));
    await screen.findByText('The only one');
    await user.click(screen.getByRole('checkbox', { name: 'Mark “The only one” as completed' }));
    expect(await screen.findByText('No active tasks. Nice work!')).toBeInTheDocument();
  });

  it('moves the focus on when a ticked task leaves the filter', async () => {
    const user = userEvent.setup();
    await addTodo('second');
    await addTodo('first');
    renderPage(<Page />, { route: '/?filter=active' });
    await screen.findByText('second');
    await allRowsEntered();

    await user.click(screen.getByRole('checkbox', { name: 'Mark “first” as completed' }));
    expect(screen.getByRole('checkbox', { name: 'Mark “second” as completed' })).toHaveFocus();
    await waitFor(() => expect(shownTitles()).toEqual(['second']));
    expect(within(filters()).getAllByRole('link').map((link) => link.textContent)).toEqual(['All 2', 'Active 1', 'Completed 1']);
  });
});
