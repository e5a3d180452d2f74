import { addTodo, clientId, fetchTodos, http, updateTodo } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { goOffline, stubAudioPlay, stubDialog } from '../../../test/browser-stubs';
import { allRowsEntered, onASmallScreenWithDialogs, rowOf, sleep } from '../../../test/page-helpers';

/** The entries of the open history dialog, top to bottom: what changed, when (and where), any conflict. */
const entries = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('listitem')
    .map((entry) => ({
      what: entry.querySelector('.tasks-history__what')?.textContent,
      when: entry.querySelector('.tasks-history__when')?.textContent,
      conflict: entry.querySelector('.tasks-history__conflict')?.textContent ?? null,
      restore: within(entry).queryByRole('button')?.getAttribute('aria-label') ?? null,
    }));

const TODAY = /^Today at \d{1,2}:\d{2}/;

/** Sends `run`'s calls as another page would (another tab or device): with another `X-Client-Id`. */
async function asAnotherPage<T>(run: () => Promise<T>): Promise<T> {
  const holder = globalThis as unknown as Record<symbol, string | undefined>;
  const key = Symbol.for('@tm/api-client/client-id');
  const mine = clientId();
  holder[key] = 'f'.repeat(32);
  try {
    return await run();
  } finally {
    holder[key] = mine;
  }
}

/** A title edit made on the value `base` (what the device showed), as the offline outbox sends it (PRODUCT §10.4). */
const renameOn = (todoId: string, title: string, base: string) => http.put(`/todo/update-todo/${todoId}`, { updateData: { title }, base: { title: base } });

describe("a task's change history (docs/PRODUCT.md §10.4)", () => {
  let restoreDialog: () => void;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    restoreDialog = stubDialog();
    // A person's first press on the page fetches the dialog (off the first load), as in a browser.
    fireEvent.pointerDown(document.body);
    await sleep(0);
  });
  afterEach(() => {
    restoreDialog();
    jest.restoreAllMocks();
  });

  it('lists two title edits newest first, in words, and Restore puts the first title back on the server', async () => {
    const user = userEvent.setup();
    await addTodo('Buy milk');
    renderPage(<TaskListPage />);
    await screen.findByText('Buy milk');
    await allRowsEntered();

    // Two edits through the row's editor.
    for (const [from, to] of [
      ['Buy milk', 'Buy oat milk'],
      ['Buy oat milk', 'Buy oat milk and bread'],
    ] as const) {
      await user.click(within(rowOf(from)).getByRole('button', { name: `Edit “${from}”` }));
      await user.clear(screen.getByRole('textbox', { name: `Edit “${from}”` }));
      await user.type(screen.getByRole('textbox', { name: `Edit “${from}”` }), `${to}{Enter}`);
      await waitFor(async () => expect((await fetchTodos())[0]?.title).toBe(to));
    }

    const history = within(rowOf('Buy oat milk and bread')).getByRole('button', { name: 'History of “Buy oat milk and bread”' });
    expect(history).toHaveAttribute('title', 'History of “Buy oat milk and bread”');
    await user.click(history);
    const dialog = await screen.findByRole('dialog', { name: 'History of “Buy oat milk and bread”' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the history…');
    expect(within(dialog).getByRole('heading', { name: 'History of “Buy oat milk and bread”' })).toHaveFocus();
    await waitFor(() => expect(entries(dialog)).toHaveLength(2));
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
    const shown = entries(dialog);
    expect(shown.map(({ what, restore }) => ({ what, restore }))).toEqual([
      { what: 'Title changed from “Buy oat milk” to “Buy oat milk and bread”', restore: 'Restore title “Buy oat milk”' },
      { what: 'Title changed from “Buy milk” to “Buy oat milk”', restore: 'Restore title “Buy milk”' },
    ]);
    // Made here, today; no conflict (each edit was made on the value the other left).
    for (const entry of shown) {
      expect(entry.when).toMatch(TODAY);
      expect(entry.when).toMatch(/ · on this page$/);
      expect(entry.conflict).toBeNull();
    }
    const times = within(dialog).getAllByRole('listitem').map((entry) => entry.querySelector('time'));
    expect(times.map((time) => time?.getAttribute('dateTime'))).toEqual(
      [...times.map((time) => time?.getAttribute('dateTime') ?? '')].sort().reverse(),
    );
    expect(Number.isNaN(Date.parse(times[0]?.getAttribute('dateTime') ?? ''))).toBe(false);

    // Restore the value the first edit replaced: the dialog closes, the row and the server have it back.
    await user.click(within(dialog).getByRole('button', { name: 'Restore title “Buy milk”' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Buy milk', { selector: '.tasks-item__title' })).toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map((todo) => todo.title)).toEqual(['Buy milk']));
    // The focus is back on the control that opened the history.
    expect(within(rowOf('Buy milk')).getByRole('button', { name: 'History of “Buy milk”' })).toHaveFocus();

    // Next time the restore is in the history too, and the value the task has again offers no Restore.
    await user.click(within(rowOf('Buy milk')).getByRole('button', { name: 'History of “Buy milk”' }));
    const again = await screen.findByRole('dialog', { name: 'History of “Buy milk”' });
    await waitFor(() => expect(entries(again)).toHaveLength(3));
    expect(entries(again).map(({ what, restore }) => ({ what, restore }))).toEqual([
      { what: 'Title changed from “Buy oat milk and bread” to “Buy milk”', restore: 'Restore title “Buy oat milk and bread”' },
      { what: 'Title changed from “Buy oat milk” to “Buy oat milk and bread”', restore: 'Restore title “Buy oat milk”' },
      { what: 'Title changed from “Buy milk” to “Buy oat milk”', restore: null },
    ]);
  });

  it('says pins and ticks in words, and restores a pin', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Water the plants');
    await updateTodo(todo._id, { isPinned: true });
    await updateTodo(todo._id, { completed: true });
    renderPage(<TaskListPage />);
    await screen.findByText('Water the plants');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'History of “Water the plants”' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Water the plants”' });
    await waitFor(() => expect(entries(dialog)).toHaveLength(2));
    expect(entries(dialog).map(({ what, restore }) => ({ what, restore }))).toEqual([
      { what: 'Marked complete', restore: 'Restore: mark active' },
      { what: 'Pinned', restore: 'Restore: unpin' },
    ]);
    // The button says "Restore"; its name says what it restores.
    expect(within(dialog).getByRole('button', { name: 'Restore: unpin' })).toHaveTextContent(/^Restore$/);

    await user.click(within(dialog).getByRole('button', { name: 'Restore: unpin' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(async () => expect((await fetchTodos()).map(({ isPinned, completed }) => ({ isPinned, completed }))).toEqual([{ isPinned: false, completed: true }]));
    await waitFor(() => expect(rowOf('Water the plants')).not.toHaveClass('tasks-item--pinned'));
  });

  it('moves the focus on to the next task, as a tick does, when a restore takes the task out of the filter', async () => {
    const user = userEvent.setup();
    await addTodo('Next in line');
    const { todo } = await addTodo('Reopened by mistake');
    await updateTodo(todo._id, { completed: true });
    await updateTodo(todo._id, { completed: false });
    renderPage(<TaskListPage />, { route: '/?filter=active' });
    await screen.findByText('Reopened by mistake');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'History of “Reopened by mistake”' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Reopened by mistake”' });
    await waitFor(() => expect(entries(dialog).map(({ what, restore }) => ({ what, restore }))).toEqual([
      { what: 'Marked active', restore: 'Restore: mark complete' },
      { what: 'Marked complete', restore: null },
    ]));
    await user.click(within(dialog).getByRole('button', { name: 'Restore: mark complete' }));

    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Next in line” as completed' })).toHaveFocus());
    await waitFor(() => expect(screen.queryByText('Reopened by mistake', { selector: '.tasks-item__title' })).not.toBeInTheDocument());
    await waitFor(async () => expect((await fetchTodos()).find((task) => task._id === todo._id)?.completed).toBe(true));
  });

  it('has nothing to show for a new task, and Escape closes it onto its button', async () => {
    const user = userEvent.setup();
    await addTodo('Brand new');
    renderPage(<TaskListPage />);
    await screen.findByText('Brand new');
    await allRowsEntered();
    const history = screen.getByRole('button', { name: 'History of “Brand new”' });

    await user.click(history);
    const dialog = await screen.findByRole('dialog', { name: 'History of “Brand new”' });
    expect(await within(dialog).findByText('No changes in the last 30 days.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('list')).not.toBeInTheDocument();
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Close']);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(history).toHaveFocus();
  });

  it('marks a change that overwrote one made on another device, in words, and says which changes were made on this page', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Plan the trip');
    // Another device renames it; this page, still showing "Plan the trip", renames it too: the later change wins.
    await asAnotherPage(() => renameOn(todo._id, 'Plan the summer trip', 'Plan the trip'));
    await renameOn(todo._id, 'Plan the autumn trip', 'Plan the trip');
    const { container } = renderPage(<TaskListPage />);
    await screen.findByText('Plan the autumn trip');
    await allRowsEntered();

    await user.click(screen.getByRole('button', { name: 'History of “Plan the autumn trip”' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Plan the autumn trip”' });
    await waitFor(() => expect(entries(dialog)).toHaveLength(2));
    const [newest, oldest] = entries(dialog);
    expect(newest).toEqual({
      what: 'Title changed from “Plan the summer trip” to “Plan the autumn trip”',
      when: expect.stringMatching(/^Today at .* · on this page$/) as unknown,
      conflict: 'Changed on two devices The later change won; the earlier value is kept here.',
      restore: 'Restore title “Plan the summer trip”',
    });
    expect(oldest).toEqual({
      what: 'Title changed from “Plan the trip” to “Plan the summer trip”',
      when: expect.not.stringContaining('on this page') as unknown,
      conflict: null,
      restore: 'Restore title “Plan the trip”',
    });
    expect(oldest?.when).toMatch(TODAY);

    // Nothing serious for assistive technology in the open dialog.
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null); // axe's icon check; jsdom has no canvas
    const { violations } = await axe.run(container);
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    for (const control of within(dialog).getAllByRole('button')) expect(control).toHaveAccessibleName();
  });

  it('says when the history could not be loaded, and Try again loads it', async () => {
    const user = userEvent.setup();
    await addTodo('Offline for a while');
    renderPage(<TaskListPage />);
    await screen.findByText('Offline for a while');
    await allRowsEntered();

    const online = goOffline();
    await user.click(screen.getByRole('button', { name: 'History of “Offline for a while”' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Offline for a while”' });
    // Offline: no retries, the error at once.
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 2_000 });
    expect(alert).toHaveTextContent(/^We could not load the history\. .*offline/i);
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();

    online();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('No changes in the last 30 days.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  }, 20_000);
});

describe('the History action in the menu of small screens', () => {
  onASmallScreenWithDialogs();

  it('is reached with the keyboard; the dialog opens on its title and Escape gives the focus back to the menu button', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Call the bank');
    await updateTodo(todo._id, { isPinned: true });
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for “Call the bank”' });
    await allRowsEntered();
    expect(within(trigger.closest('li') as HTMLElement).queryByRole('button', { name: /^History of/ })).not.toBeInTheDocument();

    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'History' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    const dialog = await screen.findByRole('dialog', { name: 'History of “Call the bank”' });
    await waitFor(() => expect(within(dialog).getByRole('heading', { name: 'History of “Call the bank”' })).toHaveFocus());
    expect(await within(dialog).findByRole('button', { name: 'Restore: unpin' })).toBeInTheDocument();
    expect(entries(dialog).map((entry) => entry.what)).toEqual(['Pinned']);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    // Closing changed nothing.
    expect((await fetchTodos())[0]?.isPinned).toBe(true);
  });
});
