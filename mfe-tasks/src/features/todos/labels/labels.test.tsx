import { addTodo, fetchTodos, http, updateTodo } from '@tm/api-client';
import { LABEL_NAME_MESSAGE } from '@tm/contracts';
import { renderPage } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { restoreMatchMedia, stubDialog, stubMatchMedia } from '../../../test/browser-stubs';
import { address, allRowsEntered, onASmallScreenWithDialogs, RouterProbe, rowOf, shownTitles, signedInWithCelebrationStubs } from '../../../test/page-helpers';
import { narrowingIn, narrowsTo, withParams } from '../hooks/use-task-filter';
import { taskTagsIn } from './label-tags';

// Labels, priorities and filters (docs/PRODUCT.md §10.20) on the page, against the real gateway and services.

function Page() {
  return (
    <>
      <TaskListPage />
      <RouterProbe />
    </>
  );
}

/** A local calendar day `offset` days from today, as a due date takes it (the person's zone is this browser's). */
function day(offset: number): string {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/**
 * What the page sends from now on, observed on the HTTP client (not replaced): each update's `updateData`, each
 * add's body.
 */
function recordWrites(): { updates: unknown[]; adds: unknown[]; stop: () => void } {
  const updates: unknown[] = [];
  const adds: unknown[] = [];
  const id = http.interceptors.request.use((config) => {
    const body = (typeof config.data === 'string' ? JSON.parse(config.data) : config.data) as { updateData?: unknown } | undefined;
    if (config.url?.includes('/todo/update-todo/')) updates.push(body?.updateData);
    if (config.url?.includes('/todo/add-todo')) adds.push(body);
    return config;
  });
  return { updates, adds, stop: () => http.interceptors.request.eject(id) };
}

const serverTask = async (title: string) => (await fetchTodos()).find((todo) => todo.title === title);
const input = () => screen.getByRole('textbox', { name: 'New task' });
const select = (name: string) => screen.getByRole('combobox', { name });

describe('a task’s priority and labels on its row (docs/PRODUCT.md §10.20)', () => {
  signedInWithCelebrationStubs();

  it('shows a flag with "P1" read "Priority 1", and each label as a link that narrows the list to it; priority 4 shows nothing', async () => {
    const user = userEvent.setup();
    await addTodo('Plain');
    await addTodo('Buy stamps', { priority: 1, labels: ['errand', 'Post'] });
    await addTodo('Water plants', { priority: 3 });
    renderPage(<Page />);
    await screen.findByText('Buy stamps');
    await allRowsEntered();

    const stamps = rowOf('Buy stamps');
    const mark = within(stamps).getByText('Priority 1');
    expect(mark).toHaveClass('visually-hidden');
    expect(mark.parentElement).toHaveAttribute('data-priority', '1');
    expect(mark.parentElement).toHaveTextContent(/^P1Priority 1$/);
    expect(within(stamps).getByRole('checkbox')).toHaveAccessibleDescription('Priority 1');
    expect(within(stamps).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['@errand', '/?label=errand'],
      ['@Post', '/?label=Post'],
    ]);
    expect(within(rowOf('Water plants')).getByText('Priority 3')).toBeInTheDocument();
    expect(within(rowOf('Water plants')).queryAllByRole('link')).toEqual([]);
    expect(rowOf('Plain').querySelector('.tasks-item__marks')).toBeNull();
    expect(rowOf('Plain')).toHaveTextContent(/^Plain$/);

    // A label on a row narrows the list to the tasks carrying it; that label is then marked on every row.
    await user.click(within(stamps).getByRole('link', { name: '@errand' }));
    expect(address()).toBe('/?label=errand');
    expect(shownTitles()).toEqual(['Buy stamps']);
    expect(within(rowOf('Buy stamps')).getByRole('link', { name: '@errand' })).toHaveAttribute('aria-current', 'true');
    expect(select('Label')).toHaveDisplayValue('@errand');
  });
});

describe('Priority and Labels… in a task’s actions (docs/PRODUCT.md §10.20)', () => {
  let writes: ReturnType<typeof recordWrites>;
  describe('on a wide screen', () => {
    signedInWithCelebrationStubs();
    let restoreDialog: () => void = () => undefined;
    beforeEach(() => {
      restoreDialog = stubDialog();
      writes = recordWrites();
    });
    afterEach(() => {
      writes.stop();
      restoreDialog();
    });

    it('Priority offers the four, the current one marked; a choice sends one update, shows at once and gives the focus back', async () => {
      const user = userEvent.setup();
      await addTodo('Call the bank');
      renderPage(<Page />);
      await screen.findByText('Call the bank');
      await allRowsEntered();
      const button = within(rowOf('Call the bank')).getByRole('button', { name: 'Priority of “Call the bank”' });
      expect(button).toHaveAttribute('aria-haspopup', 'dialog');

      await user.click(button);
      let dialog = await screen.findByRole('dialog', { name: 'Priority of “Call the bank”' });
      expect(within(dialog).getAllByRole('button').map((choice) => choice.textContent)).toEqual(['Priority 1', 'Priority 2', 'Priority 3', 'Priority 4: none (current)', 'Cancel']);
      expect(within(dialog).getByRole('button', { name: /^Priority 4/ })).toHaveAttribute('aria-current', 'true');
      await user.click(within(dialog).getByRole('button', { name: 'Priority 2' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(button).toHaveFocus();
      expect(within(rowOf('Call the bank')).getByText('Priority 2')).toBeInTheDocument();
      expect(await screen.findByText('Priority set')).toBeInTheDocument();
      expect(writes.updates).toEqual([{ priority: 2 }]);
      await waitFor(async () => expect((await serverTask('Call the bank'))?.priority).toBe(2));

      // The current one again changes nothing; Escape neither.
      await user.click(button);
      dialog = await screen.findByRole('dialog', { name: 'Priority of “Call the bank”' });
      await user.click(within(dialog).getByRole('button', { name: 'Priority 2 (current)' }));
      await user.click(button);
      await screen.findByRole('dialog', { name: 'Priority of “Call the bank”' });
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(writes.updates).toHaveLength(1);

      // Priority 4 removes it.
      await user.click(button);
      dialog = await screen.findByRole('dialog', { name: 'Priority of “Call the bank”' });
      await user.click(within(dialog).getByRole('button', { name: 'Priority 4: none' }));
      expect(await screen.findByText('Priority removed')).toBeInTheDocument();
      expect(within(rowOf('Call the bank')).queryByText(/^Priority/)).not.toBeInTheDocument();
      expect(writes.updates).toEqual([{ priority: 2 }, { priority: null }]);
      await waitFor(async () => expect(await serverTask('Call the bank')).not.toHaveProperty('priority'));
    });

    it('Labels… ticks the person’s labels, checks a new one at its field, and Save sends one update; Cancel sends none', async () => {
      const user = userEvent.setup();
      await addTodo('Other', { labels: ['home', 'errand'] });
      await addTodo('Buy stamps', { labels: ['errand'] });
      renderPage(<Page />);
      await screen.findByText('Buy stamps');
      await allRowsEntered();
      const button = within(rowOf('Buy stamps')).getByRole('button', { name: 'Labels of “Buy stamps”' });

      // Cancel changes nothing.
      await user.click(button);
      let dialog = await screen.findByRole('dialog', { name: 'Labels of “Buy stamps”' });
      expect(within(dialog).getAllByRole('checkbox').map((box) => [(box as HTMLInputElement).labels?.[0]?.textContent, (box as HTMLInputElement).checked])).toEqual([
        ['@errand', true],
        ['@home', false],
      ]);
      await user.click(within(dialog).getByRole('checkbox', { name: '@home' }));
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(button).toHaveFocus();
      expect(writes.updates).toEqual([]);

      await user.click(button);
      dialog = await screen.findByRole('dialog', { name: 'Labels of “Buy stamps”' });
      expect(within(dialog).getByRole('checkbox', { name: '@home' })).not.toBeChecked();
      const field = within(dialog).getByRole('textbox', { name: 'New label' });
      // A name with a space is refused at the field, in the rules' words.
      await user.type(field, 'post office{Enter}');
      expect(within(dialog).getByRole('alert')).toHaveTextContent(LABEL_NAME_MESSAGE);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(LABEL_NAME_MESSAGE);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(screen.getByRole('dialog', { name: 'Labels of “Buy stamps”' })).toBeInTheDocument();
      expect(writes.updates).toEqual([]);
      // Enter puts a good one among the boxes, ticked; what is left in the field counts at Save too.
      await user.clear(field);
      await user.type(field, '@Post{Enter}');
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
      expect(within(dialog).getByRole('checkbox', { name: '@Post' })).toBeChecked();
      expect(field).toHaveValue('');
      await user.click(within(dialog).getByRole('checkbox', { name: '@errand' }));
      await user.type(field, 'weekend');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(button).toHaveFocus();
      expect(await screen.findByText('Labels set')).toBeInTheDocument();
      expect(within(rowOf('Buy stamps')).getAllByRole('link').map((link) => link.textContent)).toEqual(['@Post', '@weekend']);
      expect(writes.updates).toEqual([{ labels: ['Post', 'weekend'] }]);
      await waitFor(async () => expect((await serverTask('Buy stamps'))?.labels).toEqual(['Post', 'weekend']));
    });
  });

  describe('on a small screen', () => {
    onASmallScreenWithDialogs();
    beforeEach(() => {
      writes = recordWrites();
    });
    afterEach(() => writes.stop());

    it('are items of More actions, reached with the keyboard; their dialogs give the focus back to the menu’s button', async () => {
      const user = userEvent.setup();
      await addTodo('Pack the bags', { labels: ['trip'] });
      renderPage(<Page />);
      const trigger = await screen.findByRole('button', { name: 'More actions for “Pack the bags”' });
      await allRowsEntered();

      act(() => trigger.focus());
      await user.keyboard('{Enter}');
      let menu = await screen.findByRole('menu');
      await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
      await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
      expect(within(menu).getByRole('menuitem', { name: 'Priority…' })).toHaveFocus();
      await user.keyboard('{Enter}');
      const priority = await screen.findByRole('dialog', { name: 'Priority of “Pack the bags”' });
      await user.click(within(priority).getByRole('button', { name: 'Priority 1' }));
      expect(trigger).toHaveFocus();
      expect(await screen.findByText('Priority set')).toBeInTheDocument();

      await user.keyboard('{ArrowDown}');
      menu = await screen.findByRole('menu');
      await user.click(within(menu).getByRole('menuitem', { name: 'Labels…' }));
      const labels = await screen.findByRole('dialog', { name: 'Labels of “Pack the bags”' });
      await user.click(within(labels).getByRole('checkbox', { name: '@trip' }));
      await user.click(within(labels).getByRole('button', { name: 'Save' }));
      expect(trigger).toHaveFocus();
      expect(await screen.findByText('Labels removed')).toBeInTheDocument();
      expect(writes.updates).toEqual([{ priority: 1 }, { labels: [] }]);
      await waitFor(async () => expect(await serverTask('Pack the bags')).toMatchObject({ priority: 1 }));
      expect(await serverTask('Pack the bags')).not.toHaveProperty('labels');
    });
  });
});

describe('quick add "p1" and "@name" (docs/PRODUCT.md §10.20)', () => {
  signedInWithCelebrationStubs();
  let writes: ReturnType<typeof recordWrites>;
  beforeEach(() => {
    writes = recordWrites();
  });
  afterEach(() => writes.stop());

  it('sets the priority and labels, shows them in the preview and leaves them out of the title; "me@home" stays', async () => {
    const user = userEvent.setup();
    renderPage(<Page />);
    await screen.findByText('No tasks');
    await user.type(input(), 'Buy stamps @errand p1');
    const preview = await screen.findByText('Priority 1 · @errand');
    expect(preview.parentElement).toHaveTextContent(/^Priority 1 · @errand · “Buy stamps”$/);
    expect(input()).toHaveAccessibleDescription('Priority 1 · @errand · “Buy stamps”');
    await user.keyboard('{Enter}');
    await screen.findByText('Buy stamps');
    expect(input()).toHaveValue('');
    expect(within(rowOf('Buy stamps')).getByText('Priority 1')).toBeInTheDocument();
    expect(within(rowOf('Buy stamps')).getByRole('link', { name: '@errand' })).toBeInTheDocument();
    expect(writes.adds).toEqual([{ title: 'Buy stamps', priority: 1, labels: ['errand'] }]);

    await user.type(input(), 'email me@home P3 @Work @work');
    expect(await screen.findByText('Priority 3 · @Work')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    await screen.findByText('email me@home');
    expect(writes.adds).toEqual([
      { title: 'Buy stamps', priority: 1, labels: ['errand'] },
      { title: 'email me@home', priority: 3, labels: ['Work'] },
    ]);
    await waitFor(async () =>
      expect((await fetchTodos()).map(({ title, priority, labels }) => ({ title, priority, labels }))).toEqual([
        { title: 'email me@home', priority: 3, labels: ['Work'] },
        { title: 'Buy stamps', priority: 1, labels: ['errand'] },
      ]),
    );
  });

  it('gives a task added under the Priority and Label filters that priority and label, so it stays in view', async () => {
    const user = userEvent.setup();
    renderPage(<Page />, { route: '/?label=errand&priority=2' });
    await screen.findByText('No tasks');
    await user.type(input(), 'Post the parcel @home');
    await user.keyboard('{Enter}');
    await screen.findByText('Post the parcel');
    expect(within(rowOf('Post the parcel')).getByText('Priority 2')).toBeInTheDocument();
    // The words' priority wins over the filter's.
    await user.type(input(), 'Buy tape p1');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(writes.adds).toEqual([
        { title: 'Post the parcel', priority: 2, labels: ['errand', 'home'] },
        { title: 'Buy tape', priority: 1, labels: ['errand'] },
      ]),
    );
    expect(shownTitles()).toEqual(['Post the parcel']);
  });

  it('reads the words: standing alone, good names only, the last priority; nothing else left is a title as typed', () => {
    expect(taskTagsIn('Buy stamps @errand p1')).toEqual({ priority: 1, labels: ['errand'], rest: 'Buy stamps' });
    expect(taskTagsIn('p2 Call @Mum @home @mum')).toEqual({ priority: 2, labels: ['home', 'Mum'], rest: 'Call' });
    expect(taskTagsIn('Fix p1p2 and p5 and top1')).toBeNull();
    expect(taskTagsIn('email me@home')).toBeNull();
    expect(taskTagsIn('Meet @ noon, @home,')).toBeNull();
    expect(taskTagsIn('p1 then p4 Sort mail')).toEqual({ priority: 4, labels: [], rest: 'then Sort mail' });
    expect(taskTagsIn('@errand p1')).toBeNull();
    expect(taskTagsIn('Post office @post/office')).toEqual({ labels: ['post/office'], rest: 'Post office' });
  });
});

describe('the Priority, Label and Due filters (docs/PRODUCT.md §10.20)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  beforeEach(() => {
    restoreDialog = stubDialog();
  });
  afterEach(() => {
    restoreDialog();
    restoreMatchMedia();
  });

  /** Oldest first. "Done errand" is completed. */
  async function someTasks(): Promise<void> {
    await addTodo('No date', { priority: 1, labels: ['errand'] });
    await addTodo('Yesterday', { due: day(-1), priority: 1 });
    await addTodo('Today', { due: day(0), labels: ['errand'] });
    await addTodo('In three days', { due: day(3), priority: 1, labels: ['errand'] });
    await addTodo('In ten days', { due: day(10), labels: ['home'] });
    const { todo } = await addTodo('Done errand', { due: day(-2), priority: 1, labels: ['errand'] });
    await updateTodo(todo._id, { completed: true });
  }

  it('narrow the status filter together, each choice in the address keeping the others; Back restores; the counts follow', async () => {
    const user = userEvent.setup();
    await someTasks();
    renderPage(<Page />);
    await screen.findByText('In ten days');
    await allRowsEntered();
    const statusLinks = () => within(screen.getByRole('navigation', { name: 'Filter tasks' })).getAllByRole('link');
    expect(shownTitles()).toHaveLength(6);
    expect(within(select('Label')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Any', '@errand', '@home']);
    expect(within(select('Due')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Any', 'Overdue', 'Due today', 'Next 7 days', 'No due date']);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();

    await user.selectOptions(select('Priority'), 'Priority 1');
    expect(address()).toBe('/?priority=1');
    expect(shownTitles()).toEqual(['Done errand', 'In three days', 'Yesterday', 'No date']);
    await user.selectOptions(select('Label'), '@errand');
    expect(address()).toBe('/?priority=1&label=errand');
    expect(shownTitles()).toEqual(['Done errand', 'In three days', 'No date']);
    // The status filters count what the other filters leave.
    expect(statusLinks().map((link) => link.textContent)).toEqual(['All 3', 'Active 2', 'Completed 1']);
    expect(statusLinks()[1]).toHaveAttribute('href', '/?priority=1&label=errand&filter=active');
    await user.click(statusLinks()[1] as HTMLElement);
    expect(address()).toBe('/?priority=1&label=errand&filter=active');
    expect(shownTitles()).toEqual(['In three days', 'No date']);
    await user.selectOptions(select('Due'), 'Next 7 days');
    expect(address()).toBe('/?priority=1&label=errand&filter=active&due=week');
    expect(shownTitles()).toEqual(['In three days']);

    // Back undoes one choice at a time.
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(address()).toBe('/?priority=1&label=errand&filter=active');
    expect(select('Due')).toHaveDisplayValue('Any');
    expect(shownTitles()).toEqual(['In three days', 'No date']);
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(address()).toBe('/?priority=1&label=errand');
    expect(shownTitles()).toEqual(['Done errand', 'In three days', 'No date']);

    // Clear filters takes the three away and keeps the status filter; the focus stays among the filters.
    await user.click(statusLinks()[1] as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(address()).toBe('/?filter=active');
    expect(shownTitles()).toEqual(['In ten days', 'In three days', 'Today', 'Yesterday', 'No date']);
    expect(select('Priority')).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('Due: overdue (open tasks only), today, the next 7 days and no date, on the person’s own day', async () => {
    await someTasks();
    const shown = async (route: string) => {
      const page = renderPage(<Page />, { route });
      await screen.findByRole('combobox', { name: 'Due' });
      await waitFor(() => expect(screen.queryByText('Loading your tasks…')).not.toBeInTheDocument());
      const titles = screen.queryAllByRole('listitem').length === 0 ? [] : shownTitles();
      page.unmount();
      return titles;
    };
    expect(await shown('/?due=overdue')).toEqual(['Yesterday']);
    expect(await shown('/?due=today')).toEqual(['Today']);
    expect(await shown('/?due=week')).toEqual(['In three days', 'Today']);
    expect(await shown('/?due=none')).toEqual(['No date']);
    // Unknown values are "Any", as for the status filter.
    expect(await shown('/?due=someday&priority=9')).toHaveLength(6);
  });

  it('a filter that matches nothing says so, with Clear filters at hand', async () => {
    const user = userEvent.setup();
    await someTasks();
    renderPage(<Page />, { route: '/?label=nowhere&priority=2' });
    expect(await screen.findByText('No tasks match these filters.')).toBeInTheDocument();
    expect(screen.queryAllByRole('listitem')).toEqual([]);
    // The label the address names shows in its select even though no task carries it.
    expect(select('Label')).toHaveDisplayValue('@nowhere');
    const clears = screen.getAllByRole('button', { name: 'Clear filters' });
    expect(clears).toHaveLength(2);
    await user.click(clears[1] as HTMLElement);
    expect(address()).toBe('/');
    expect(select('Priority')).toHaveFocus();
    await waitFor(() => expect(shownTitles()).toHaveLength(6));
    expect(screen.queryByText('No tasks match these filters.')).not.toBeInTheDocument();
  });

  it('on a phone they wait behind "Filters" beside "Lists" until opened or set, and name themselves', async () => {
    const user = userEvent.setup();
    stubMatchMedia(['(max-width: 640px)']);
    await someTasks();
    const first = renderPage(<Page />);
    await screen.findByText('Today');
    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('group', { name: 'More filters' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const group = screen.getByRole('group', { name: 'More filters' });
    expect(toggle).toHaveAttribute('aria-controls', group.id);
    await waitFor(() => expect(select('Priority')).toHaveFocus());
    expect(within(group).getAllByRole('combobox').map((control) => (control as HTMLSelectElement).selectedOptions[0]?.textContent)).toEqual(['Priority', 'Label', 'Due date']);
    await user.selectOptions(select('Due'), 'Due today');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toHaveAttribute('aria-expanded', 'true');
    expect(shownTitles()).toEqual(['Today']);
    first.unmount();

    // An address with a filter set shows them at once.
    renderPage(<Page />, { route: '/?due=today&label=errand' });
    await screen.findByText('Today');
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(screen.getByRole('group', { name: 'More filters' })).getAllByRole('combobox').map((control) => (control as HTMLSelectElement).selectedOptions[0]?.textContent)).toEqual([
      'Priority',
      '@errand',
      'Due today',
    ]);
  });
});

describe('the filters’ rules', () => {
  const task = (fields: Record<string, unknown> = {}) => ({ _id: 'a', title: 'A', completed: false, isPinned: false, createdAt: '', updatedAt: '', completedAt: null, ...fields });

  it('the address keeps every other parameter when one changes', () => {
    expect(withParams('?filter=active&label=errand', { label: 'home' })).toBe('?filter=active&label=home');
    expect(withParams('?filter=active&label=errand', { label: undefined, priority: '1' })).toBe('?filter=active&priority=1');
    expect(withParams('?label=errand', { label: undefined })).toBe('');
  });

  it('reads the filters of an address, ignoring values that are none of the choices', () => {
    expect(narrowingIn('?priority=2&label=Errand&due=week')).toEqual({ priority: 2, label: 'Errand', due: 'week' });
    expect(narrowingIn('?priority=0&label=two%20words&due=later')).toEqual({});
  });

  it('matches priority (4: none), a label case aside, and the due day', () => {
    const today = '2026-03-14';
    expect(narrowsTo(task(), { priority: 4 }, today)).toBe(true);
    expect(narrowsTo(task({ priority: 2 }), { priority: 4 }, today)).toBe(false);
    expect(narrowsTo(task({ labels: ['Errand'] }), { label: 'errand' }, today)).toBe(true);
    expect(narrowsTo(task({ due: '2026-03-14T09:00' }), { due: 'today' }, today)).toBe(true);
    expect(narrowsTo(task({ due: '2026-03-20' }), { due: 'week' }, today)).toBe(true);
    expect(narrowsTo(task({ due: '2026-03-21' }), { due: 'week' }, today)).toBe(false);
    expect(narrowsTo(task({ due: '2026-03-13' }), { due: 'week' }, today)).toBe(false);
    expect(narrowsTo(task(), { due: 'none' }, today)).toBe(true);
  });
});
