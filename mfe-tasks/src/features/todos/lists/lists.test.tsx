import { addTodo, fetchTodoList, http, newIdempotencyKey } from '@tm/api-client';
import { IDEMPOTENCY_KEY_HEADER, type ListResponse } from '@tm/contracts';
import { renderPage } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { restoreMatchMedia, stubDialog, stubMatchMedia } from '../../../test/browser-stubs';
import { allRowsEntered, rowOf, signedInWithCelebrationStubs } from '../../../test/page-helpers';
import { WIDE_SCREEN_QUERY } from '../constants';
import { listTagIn } from './list-tag';
import { movedOrder } from './list-menu';

/** Lists in the task list (docs/PRODUCT.md §10.19), against the real test stack as every page test. */

async function makeList(name: string, colour?: string): Promise<ListResponse['list']> {
  const answer = await http.post<ListResponse>('/todo/lists', colour ? { name, colour } : { name }, { headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } });
  return answer.data.list;
}

/** The page at `route`, and at every list's address too (the shell serves `/lists/*` with the same page). */
const renderAt = (route = '/') => renderPage(<TaskListPage />, { route, routes: route === '/' ? { '/lists/:listId': <TaskListPage /> } : { '/': <TaskListPage /> } });

const nav = () => screen.getByRole('navigation', { name: 'Lists' });

describe('lists on a wide screen (docs/PRODUCT.md §10.19)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  beforeEach(() => {
    stubMatchMedia([WIDE_SCREEN_QUERY]);
    restoreDialog = stubDialog();
  });
  afterEach(() => {
    restoreDialog();
    restoreMatchMedia();
  });

  it('shows the sidebar: All tasks, Inbox, the lists with their open tasks, the archived ones in a disclosure; the current one marked', async () => {
    const work = await makeList('Work', 'blue');
    await makeList('Old', 'red').then((old) => http.put(`/todo/lists/${old._id}`, { archived: true }, { headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } }));
    await addTodo('Report', { listId: work._id });
    await addTodo('Milk');
    renderAt(`/lists/${work._id}`);
    const lists = await screen.findByRole('navigation', { name: 'Lists' });
    await within(lists).findByRole('link', { name: /Work/ });
    expect(within(lists).getAllByRole('link').map((link) => link.textContent)).toEqual(['All tasks2', 'Inbox1', 'Work1', 'Old']);
    expect(within(lists).getByRole('link', { name: /Work/ })).toHaveAttribute('aria-current', 'page');
    expect(within(lists).getByText('Archived (1)')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Work' })).toBeInTheDocument();
    await screen.findByText('Report');
    expect(screen.queryByText('Milk')).not.toBeInTheDocument();
  });

  it('Archive keeps a list\'s tasks out of All tasks (its count too) and shows them in that list; the bulk actions of All tasks give way until Restore', async () => {
    const user = userEvent.setup();
    const trip = await makeList('Trip', 'green');
    await addTodo('Pack the tent', { listId: trip._id });
    await addTodo('Milk');
    renderAt('/');
    await screen.findByText('Pack the tent');
    expect(screen.getByRole('button', { name: 'Mark all complete' })).toBeInTheDocument();
    await user.click(within(nav()).getByRole('button', { name: 'Actions for list “Trip”' }));
    await user.click(within(await screen.findByRole('menu', { name: 'Actions for list “Trip”' })).getByRole('menuitem', { name: 'Archive' }));
    await waitFor(() => expect(screen.queryByText('Pack the tent')).not.toBeInTheDocument());
    expect(screen.getByText('Milk')).toBeInTheDocument();
    expect(within(nav()).getAllByRole('link').map((link) => link.textContent)).toEqual(['All tasks1', 'Inbox1', 'Trip1']);
    // Mark all complete and Clear completed act on every task, the archived list's too: not offered while some are left out.
    expect(screen.queryByRole('button', { name: 'Mark all complete' })).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodoList()).lists[0]?.archived).toBe(true));
    await user.click(within(nav()).getByRole('link', { name: /Trip/ }));
    await screen.findByRole('heading', { level: 2, name: 'Trip' });
    expect(await screen.findByText('Pack the tent')).toBeInTheDocument();
    expect(screen.queryByText('Milk')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all complete' })).toBeInTheDocument();
    await user.click(within(nav()).getByRole('button', { name: 'Actions for list “Trip”' }));
    await user.click(within(await screen.findByRole('menu', { name: 'Actions for list “Trip”' })).getByRole('menuitem', { name: 'Restore' }));
    await user.click(within(nav()).getByRole('link', { name: /All tasks/ }));
    expect(await screen.findByText('Pack the tent')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all complete' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: /All tasks/ })).toHaveTextContent('All tasks2');
  });

  it('"New list" makes a list and opens it; a task added there goes into it', async () => {
    const user = userEvent.setup();
    renderAt('/');
    await user.click(await within(await screen.findByRole('navigation', { name: 'Lists' })).findByRole('button', { name: 'New list' }));
    await user.type(screen.getByRole('textbox', { name: 'List name' }), 'inbox');
    await user.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('“Inbox” is the list every account has');
    await user.clear(screen.getByRole('textbox', { name: 'List name' }));
    await user.type(screen.getByRole('textbox', { name: 'List name' }), 'Errands{Enter}');
    await screen.findByRole('heading', { level: 2, name: 'Errands' });
    expect(within(nav()).getByRole('link', { name: /Errands/ })).toHaveAttribute('aria-current', 'page');
    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'Post the letter{Enter}');
    await screen.findByText('Post the letter');
    const { todos, lists } = await fetchTodoList();
    expect(lists.map((list) => list.name)).toEqual(['Errands']);
    await waitFor(async () => expect((await fetchTodoList()).todos.map((todo) => todo.listId)).toEqual([lists[0]?._id]));
    expect(todos.length).toBeLessThanOrEqual(1);
  });

  it('an unknown list in the address says so, with a link to All tasks', async () => {
    renderAt('/lists/ffffffffffffffffffffffff');
    expect(await screen.findByText('This list does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to All tasks' })).toHaveAttribute('href', '/');
  });

  it('All tasks names each task\'s list; "Move to…" moves a task, Inbox first among the choices', async () => {
    const user = userEvent.setup();
    const work = await makeList('Work', 'teal');
    await addTodo('Milk');
    renderAt('/');
    await screen.findByText('Milk');
    await allRowsEntered();
    expect(within(rowOf('Milk')).queryByText('Work')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move “Milk” to…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move “Milk” to…' });
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Inbox (current)', 'Work', 'Cancel']);
    await user.click(within(dialog).getByRole('button', { name: 'Work' }));
    expect(await screen.findByText('Task moved')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('Milk')).getByText('Work')).toBeInTheDocument());
    await waitFor(async () => expect((await fetchTodoList()).todos[0]?.listId).toBe(work._id));
  });

  it('`M` on a focused row opens "Move to…"', async () => {
    const user = userEvent.setup();
    await makeList('Work');
    await addTodo('Milk');
    renderAt('/');
    await screen.findByText('Milk');
    await allRowsEntered();
    within(rowOf('Milk')).getByRole('checkbox').focus();
    await user.keyboard('m');
    expect(await screen.findByRole('dialog', { name: 'Move “Milk” to…' })).toBeInTheDocument();
  });

  it('quick add "#Name" puts the task into that list, the preview saying so', async () => {
    const user = userEvent.setup();
    const work = await makeList('Work');
    renderAt('/');
    await screen.findByRole('navigation', { name: 'Lists' });
    await user.type(screen.getByRole('textbox', { name: 'New task' }), 'Call Bob #work');
    expect(await screen.findByText(/In list “Work”/)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    await screen.findByText('Call Bob');
    await waitFor(async () => expect((await fetchTodoList()).todos.map((todo) => [todo.title, todo.listId])).toEqual([['Call Bob', work._id]]));
  });

  it('deleting a list with tasks asks first, then offers Undo, which brings the list and its tasks back', async () => {
    const user = userEvent.setup();
    const work = await makeList('Work');
    await addTodo('Report', { listId: work._id });
    await addTodo('Slides', { listId: work._id });
    renderAt(`/lists/${work._id}`);
    await screen.findByText('Report');
    await user.click(within(nav()).getByRole('button', { name: 'Actions for list “Work”' }));
    const menu = await screen.findByRole('menu', { name: 'Actions for list “Work”' });
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Rename…', 'Colour…', 'Archive', 'Delete…']);
    expect(within(menu).getAllByRole('menuitem')[0]).toHaveFocus();
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete…' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete “Work” and its 2 tasks?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete list' }));
    expect(await screen.findByText('List deleted')).toBeInTheDocument();
    await waitFor(() => expect(within(nav()).queryByRole('link', { name: /Work/ })).not.toBeInTheDocument());
    await waitFor(async () => expect((await fetchTodoList()).lists).toEqual([]));
    await user.click(screen.getByRole('button', { name: /^Undo deleting/ }));
    await waitFor(async () => expect((await fetchTodoList()).todos.map((todo) => todo.title).sort()).toEqual(['Report', 'Slides']));
    await within(nav()).findByRole('link', { name: /Work/ });
  });

  it('Rename: the dialog starts on the name, refuses a name taken (case aside), and sends the new one', async () => {
    const user = userEvent.setup();
    await makeList('Home');
    const work = await makeList('Work');
    renderAt(`/lists/${work._id}`);
    await user.click(await within(await screen.findByRole('navigation', { name: 'Lists' })).findByRole('button', { name: 'Actions for list “Work”' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename “Work”' });
    const field = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(field).toHaveValue('Work');
    await user.clear(field);
    await user.type(field, 'home{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You already have a list named “home”.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, '  Projects {Enter}');
    expect(await screen.findByText('List renamed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename “Work”' })).not.toBeInTheDocument());
    expect(await screen.findByRole('heading', { level: 2, name: 'Projects' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: /Projects/ })).toHaveAttribute('aria-current', 'page');
    await waitFor(async () => expect((await fetchTodoList()).lists.map((list) => list.name)).toEqual(['Home', 'Projects']));
  });

  it('Move up and Move down change the order on screen and on the server; the edges offer only the way that exists', async () => {
    const user = userEvent.setup();
    for (const name of ['Alpha', 'Beta', 'Gamma']) await makeList(name);
    renderAt('/');
    const order = () => within(nav()).getAllByRole('link').map((link) => link.querySelector('.lists-nav__name')?.textContent);
    await within(await screen.findByRole('navigation', { name: 'Lists' })).findByRole('link', { name: /Gamma/ });
    expect(order()).toEqual(['All tasks', 'Inbox', 'Alpha', 'Beta', 'Gamma']);

    await user.click(within(nav()).getByRole('button', { name: 'Actions for list “Gamma”' }));
    let menu = await screen.findByRole('menu', { name: 'Actions for list “Gamma”' });
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Rename…', 'Colour…', 'Move up', 'Archive', 'Delete…']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Move up' }));
    await waitFor(() => expect(order()).toEqual(['All tasks', 'Inbox', 'Alpha', 'Gamma', 'Beta']));
    expect(within(nav()).getByRole('button', { name: 'Actions for list “Gamma”' })).toHaveFocus();

    // From the keyboard: ArrowUp opens the menu on its last item; Home goes to the first.
    within(nav()).getByRole('button', { name: 'Actions for list “Alpha”' }).focus();
    await user.keyboard('{ArrowUp}');
    menu = await screen.findByRole('menu', { name: 'Actions for list “Alpha”' });
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Rename…', 'Colour…', 'Move down', 'Archive', 'Delete…']);
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Delete…' })).toHaveFocus());
    await user.keyboard('{Home}{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(order()).toEqual(['All tasks', 'Inbox', 'Gamma', 'Alpha', 'Beta']));
    await waitFor(async () => expect((await fetchTodoList()).lists.map((list) => list.name)).toEqual(['Gamma', 'Alpha', 'Beta']));
  });

  it('the colour picker names the nine colours; a new colour is sent', async () => {
    const user = userEvent.setup();
    await makeList('Work');
    renderAt('/');
    await user.click(await within(await screen.findByRole('navigation', { name: 'Lists' })).findByRole('button', { name: 'Actions for list “Work”' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Colour…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Colour of “Work”' });
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Grey', 'Red', 'Orange', 'Yellow', 'Green', 'Teal', 'Blue', 'Purple', 'Pink']);
    await user.click(within(dialog).getByRole('radio', { name: 'Purple' }));
    await waitFor(async () => expect((await fetchTodoList()).lists[0]?.colour).toBe('purple'));
  });
});

describe('lists on a phone (docs/PRODUCT.md §10.19)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  beforeEach(() => {
    restoreDialog = stubDialog();
  });
  afterEach(() => restoreDialog());

  it('"Lists" opens the lists as a modal drawer; choosing one closes it and opens that list', async () => {
    const user = userEvent.setup();
    await makeList('Work');
    renderAt('/');
    expect(screen.queryByRole('navigation', { name: 'Lists' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Lists' }));
    const drawer = await screen.findByRole('dialog', { name: 'Lists' });
    await user.click(await within(drawer).findByRole('link', { name: /Work/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Lists' })).not.toBeInTheDocument());
    // The focus goes to what was chosen, not back to the "Lists" button.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Work' })).toHaveFocus());
    screen.getByRole('button', { name: 'Lists' }).focus();
    expect(screen.getByRole('heading', { level: 2, name: 'Work' })).not.toHaveAttribute('tabindex');
  });
});

describe('list rules of the page', () => {
  const list = (name: string, order = 'a0', _id = name.padEnd(24, '0')) => ({ _id, name, colour: 'grey' as const, order, archived: false, createdAt: '', updatedAt: '' });

  it('"#Name" names a list case aside, standing alone, the longest name first; "#4" stays in the title', () => {
    const lists = [list('Work'), list('Work trips')];
    expect(listTagIn('Book hotel #work trips', lists)).toMatchObject({ list: { name: 'Work trips' }, words: '#work trips', rest: 'Book hotel' });
    expect(listTagIn('#WORK Report', lists)).toMatchObject({ list: { name: 'Work' }, rest: 'Report' });
    expect(listTagIn('Table for #4 people', lists)).toBeNull();
    expect(listTagIn('email#work', lists)).toBeNull();
    expect(listTagIn('#workshop', lists)).toBeNull();
    // An archived list is out of the way: its name stays in the title.
    expect(listTagIn('Book hotel #work trips', [list('Work'), { ...list('Work trips'), archived: true }])).toMatchObject({ list: { name: 'Work' }, rest: 'Book hotel trips' });
    expect(listTagIn('#Old things', [{ ...list('Old'), archived: true }])).toBeNull();
  });

  it('Move up / down put a list between its new neighbours, and not past the edge', () => {
    const [a, b, c] = [list('A', 'a0'), list('B', 'a1'), list('C', 'a2')];
    const lists = [a, b, c];
    const up = movedOrder(c, lists, -1);
    expect(up !== null && up > 'a0' && up < 'a1').toBe(true);
    const down = movedOrder(a, lists, 1);
    expect(down !== null && down > 'a1' && down < 'a2').toBe(true);
    expect(movedOrder(a, lists, -1)).toBeNull();
    expect(movedOrder(c, lists, 1)).toBeNull();
  });
});
