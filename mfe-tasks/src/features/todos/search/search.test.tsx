import { addTodo, updateTodo } from '@tm/api-client';
import { renderPage } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, restoreMatchMedia, stubMatchMedia } from '../../../test/browser-stubs';
import { address, RouterProbe, signedInWithCelebrationStubs } from '../../../test/page-helpers';
import { SMALL_SCREEN_QUERY } from '../constants';
import { OFFLINE_SEARCH_MESSAGE } from './search-results';

// Search on the task screen (docs/PRODUCT.md §10.22), against the real gateway and services: the field and
// `/`, the query in the address with the filters, the matches with their words highlighted and the line of
// the note or subtask that matched, the live count, Escape, and the device's own search offline.

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
    </>
  );
}

const field = () => screen.getByRole('searchbox', { name: 'Search tasks' });
const results = () => screen.getByRole('list', { name: /^Tasks matching/ });
/** Each result's text, and the words highlighted in it. */
const shownResults = () =>
  within(results())
    .getAllByRole('listitem')
    .map((item) => ({ text: item.textContent, marked: [...item.querySelectorAll('mark')].map((mark) => mark.textContent) }));

describe('search (docs/PRODUCT.md §10.22)', () => {
  signedInWithCelebrationStubs();
  afterEach(restoreMatchMedia);

  it('/ puts the focus in the field; what is typed is the address’s q and finds titles, notes and subtasks, highlighted', async () => {
    const user = userEvent.setup();
    await addTodo('Buy oat milk');
    await addTodo('Weekend', { note: 'Farmers market\nBring the milk crate back' });
    await addTodo('Party', { subtasks: [{ id: 's1', title: 'Milkshakes for everyone', done: false }] });
    await addTodo('Call the bank');
    renderPage(<Page />);
    await screen.findByText('Call the bank');

    await user.keyboard('/');
    expect(field()).toHaveFocus();
    await user.keyboard('mil');
    expect(address()).toBe('/?q=mil');
    expect(await screen.findByText('3 tasks match “mil”.')).toHaveAttribute('role', 'status');
    expect(shownResults().sort((a, b) => (a.text ?? '').localeCompare(b.text ?? ''))).toEqual([
      { text: 'Buy oat milk', marked: ['mil'] },
      { text: 'PartySubtask: Milkshakes for everyone', marked: ['Mil'] },
      { text: 'WeekendNote: Bring the milk crate back', marked: ['mil'] },
    ]);
    // The rows of the list give way to the matches while a search is set.
    expect(screen.queryByText('Call the bank')).not.toBeInTheDocument();

    await user.keyboard('k crate');
    expect(await screen.findByText('1 task matches “milk crate”.')).toBeInTheDocument();
    expect(shownResults()).toEqual([{ text: 'WeekendNote: Bring the milk crate back', marked: ['milk', 'crate'] }]);

    await user.keyboard('{Escape}');
    expect(field()).toHaveValue('');
    expect(address()).toBe('/');
    expect(await screen.findByText('Call the bank')).toBeInTheDocument();
  });

  it('opens from the address with the filters it keeps, says when nothing matches, and a result opens its task in the list', async () => {
    const user = userEvent.setup();
    await addTodo('Report draft');
    const { todo: sent } = await addTodo('Report sent');
    await updateTodo(sent._id, { completed: true });
    renderPage(<Page />, { route: '/?filter=active&q=report' });

    expect(await screen.findByText('1 task matches “report”.')).toBeInTheDocument();
    expect(field()).toHaveValue('report');
    expect(shownResults()).toEqual([{ text: 'Report draft', marked: ['Report'] }]);

    await user.clear(field());
    await user.type(field(), 'zebra');
    expect(await screen.findByText('No tasks match “zebra”.')).toBeInTheDocument();
    expect(address()).toBe('/?filter=active&q=zebra');

    await user.clear(field());
    await user.type(field(), 'draft');
    await user.click(await screen.findByRole('link', { name: 'Report draft' }));
    expect(address()).toBe('/?filter=active');
    expect(field()).toHaveValue('');
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Report draft” as completed' })).toHaveFocus());
  });

  it('offline, searches the tasks on this device by the same rule, and says so', async () => {
    const user = userEvent.setup();
    await addTodo('Café au lait', { note: 'with oat milk' });
    await addTodo('Tea');
    renderPage(<Page />);
    await screen.findByText('Tea');
    const goOnline = goOffline();
    try {
      await user.type(field(), 'cafe OAT');
      expect(await screen.findByText(OFFLINE_SEARCH_MESSAGE)).toBeInTheDocument();
      expect(screen.getByText('1 task matches “cafe OAT”.')).toBeInTheDocument();
      expect(shownResults()).toEqual([{ text: 'Café au laitNote: with oat milk', marked: ['Café', 'oat'] }]);
    } finally {
      goOnline();
    }
  });

  it('on a phone waits behind a Search button, which opens the field with the focus in it; Escape twice closes it', async () => {
    stubMatchMedia([SMALL_SCREEN_QUERY]);
    const user = userEvent.setup();
    await addTodo('A task');
    renderPage(<Page />);
    await screen.findByText('A task');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();

    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(field()).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('task');
    expect(await screen.findByText('1 task matches “task”.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(field()).toHaveValue('');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });
});
