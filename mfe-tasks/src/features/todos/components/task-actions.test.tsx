import { addTodo, fetchTodos } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, playedSources, restoreMatchMedia, stubAudioPlay, stubMatchMedia } from '../../../test/browser-stubs';
import { SMALL_SCREEN_QUERY } from '../constants';

describe('the row actions on a small screen', () => {
  let play: jest.SpyInstance;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubMatchMedia([SMALL_SCREEN_QUERY]);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    restoreMatchMedia();
  });

  it('puts edit, pin, history, due date, priority, labels, move and delete into an overflow menu, and marks a pinned row with one visually hidden "Pinned"', async () => {
    const user = userEvent.setup();
    await addTodo('Pack the bags');
    renderPage(<TaskListPage />);
    const row = (await screen.findByText('Pack the bags')).closest('li') as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Pin “Pack the bags”' })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete “Pack the bags”' })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'History of “Pack the bags”' })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Due date of “Pack the bags”' })).not.toBeInTheDocument();
    expect(within(row).queryByText('Pinned')).not.toBeInTheDocument();

    const trigger = within(row).getByRole('button', { name: 'More actions for “Pack the bags”' });
    expect(trigger).toHaveAttribute('title', 'More actions for “Pack the bags”');
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Edit', 'Details…', 'Pin', 'History', 'Due date…', 'Priority…', 'Labels…', 'Move to…', 'Delete']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Pin' }));

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(row).toHaveClass('tasks-item--pinned');
    // The menu layout has no pressed pin button: the row carries the mark, its word for screen readers only.
    const mark = within(row).getByText('Pinned');
    expect(mark).toHaveClass('visually-hidden');
    expect(mark.parentElement?.querySelector('svg')).toBeInTheDocument();
    expect(within(row).getAllByText('Pinned')).toHaveLength(1);
    expect(row).toHaveTextContent(/^Pack the bagsPinned$/);
    await waitFor(async () => expect((await fetchTodos())[0]?.isPinned).toBe(true));
    await user.click(within(row).getByRole('button', { name: 'More actions for “Pack the bags”' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Edit', 'Details…', 'Unpin', 'History', 'Due date…', 'Priority…', 'Labels…', 'Move to…', 'Delete']);
  });

  it('works with the keyboard: open the menu, arrow to Delete, press Enter; the focus goes to the next row', async () => {
    const user = userEvent.setup();
    await addTodo('Book the hotel');
    await addTodo('Cancel the trip');
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for “Cancel the trip”' });
    const row = trigger.closest('li') as HTMLElement;
    // Wait for the staggered entrance: a row still waiting for it is inert.
    await waitFor(() => screen.getAllByRole('listitem').forEach((item) => expect(item).not.toHaveAttribute('inert')), { timeout: 3000 });

    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(playedSources(play)).toEqual(['/sounds/deleted.mp3']);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Book the hotel” as completed' })).toHaveFocus());
    await waitFor(() => expect(row).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Mark “Book the hotel” as completed' })).toHaveFocus();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Book the hotel']));

    // The last row: no neighbour left, so the focus goes to the new-task input.
    const last = screen.getByRole('listitem');
    await user.click(within(last).getByRole('button', { name: 'More actions for “Book the hotel”' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByPlaceholderText('What would you like to accomplish?')).toHaveFocus());
    await waitFor(() => expect(last).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Your tasks' })).not.toHaveAttribute('tabindex');
    await waitFor(async () => expect(await fetchTodos()).toEqual([]));
  });

  it('after a delete that failed, the row menu gives the focus back to its button as usual', async () => {
    const user = userEvent.setup();
    await addTodo('Keep me');
    await addTodo('Fail to delete me');
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for “Fail to delete me”' });
    await waitFor(() => screen.getAllByRole('listitem').forEach((item) => expect(item).not.toHaveAttribute('inert')), { timeout: 3000 });

    const online = goOffline();
    await user.click(trigger);
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Delete' }));
    online();
    // The delete failed: the row is back, with its menu button.
    const again = await screen.findByRole('button', { name: 'More actions for “Fail to delete me”' });
    await waitFor(() => expect(again.closest('li')).not.toHaveAttribute('inert'));

    await user.click(again);
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Pin' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for “Fail to delete me”' })).toHaveFocus());
    expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Fail to delete me', 'Keep me']);
  });

  it('is a menu button: ArrowUp opens on the last item, arrows wrap, Home and End jump, Escape and Tab close it onto its button, a click outside closes it', async () => {
    const user = userEvent.setup();
    await addTodo('Water the plants');
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for “Water the plants”' });
    await waitFor(() => screen.getAllByRole('listitem').forEach((item) => expect(item).not.toHaveAttribute('inert')), { timeout: 3000 });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');

    trigger.focus();
    await user.keyboard('{ArrowUp}');
    const menu = await screen.findByRole('menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toHaveAttribute('aria-labelledby', trigger.id);
    const item = (name: string) => within(menu).getByRole('menuitem', { name });
    await waitFor(() => expect(item('Delete')).toHaveFocus());
    expect(item('Delete')).toHaveAttribute('data-highlighted');
    await user.keyboard('{ArrowDown}');
    expect(item('Edit')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(item('Delete')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(item('Edit')).toHaveFocus();
    await user.keyboard('{End}');
    expect(item('Delete')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
    await user.keyboard('{Tab}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();

    await user.click(trigger);
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { name: 'Your tasks' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // Nothing was picked: the task is as it was.
    expect((await fetchTodos()).map(({ title, isPinned }) => ({ title, isPinned }))).toEqual([{ title: 'Water the plants', isPinned: false }]);
  });
});
