import { addTodo, fetchTodos, http, updateTodo } from '@tm/api-client';
import { LIMITS, NOTE_TOO_LONG_MESSAGE, SUBTASK_TITLE_EMPTY_MESSAGE } from '@tm/contracts';
import { renderPage } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { stubDialog } from '../../../test/browser-stubs';
import { allRowsEntered, onASmallScreenWithDialogs, rowOf, signedInWithCelebrationStubs } from '../../../test/page-helpers';

// A task's details (docs/PRODUCT.md §10.21) on the page, against the real gateway and services: the row's
// marks, opening them (Details…, Enter on a row, a tap on a title on a phone), the note shown as text with
// its links, and every action one update.

/** Each update's `updateData` the page sends from now on, observed on the HTTP client (not replaced). */
function recordUpdates(): { sent: unknown[]; stop: () => void } {
  const sent: unknown[] = [];
  const id = http.interceptors.request.use((config) => {
    const body = (typeof config.data === 'string' ? JSON.parse(config.data) : config.data) as { updateData?: unknown } | undefined;
    if (config.url?.includes('/todo/update-todo/')) sent.push(body?.updateData);
    return config;
  });
  return { sent, stop: () => http.interceptors.request.eject(id) };
}

const serverTask = async (title: string) => (await fetchTodos()).find((todo) => todo.title === title);
const milk = { id: 'milk', title: 'Buy milk', done: true };
const bread = { id: 'bread', title: 'Buy bread', done: false };

describe('a task’s details on its row (docs/PRODUCT.md §10.21)', () => {
  signedInWithCelebrationStubs();

  it('shows the subtasks’ progress "1/2", read with the checkbox, and a note mark; a task with neither shows nothing', async () => {
    await addTodo('Plain');
    await addTodo('Shop', { subtasks: [milk, bread], note: 'Oat milk' });
    renderPage(<TaskListPage />);
    await screen.findByText('Shop');
    await allRowsEntered();
    const shop = rowOf('Shop');
    expect(within(shop).getByText('1/2')).toHaveAttribute('aria-hidden', 'true');
    expect(within(shop).getByRole('checkbox')).toHaveAccessibleDescription('1 of 2 subtasks done');
    expect(within(shop).getByText('Has a note')).toHaveClass('visually-hidden');
    expect(rowOf('Plain').querySelector('.tasks-item__marks')).toBeNull();
  });
});

describe('the details on a wide screen (docs/PRODUCT.md §10.21)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  let writes: ReturnType<typeof recordUpdates>;
  beforeEach(() => {
    restoreDialog = stubDialog();
    writes = recordUpdates();
  });
  afterEach(() => {
    writes.stop();
    restoreDialog();
  });

  it('Details… shows the note as text with its links; editing it saves once; Escape closes and the focus goes back', async () => {
    const user = userEvent.setup();
    await addTodo('Call the bank', { note: 'Ask <b>about</b> fees: https://bank.example/fees.\nThen the card.' });
    renderPage(<TaskListPage />);
    await screen.findByText('Call the bank');
    await allRowsEntered();
    const button = within(rowOf('Call the bank')).getByRole('button', { name: 'Details of “Call the bank”' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Details of “Call the bank”' });
    expect(within(dialog).getByRole('heading', { level: 2 })).toHaveFocus();

    // The note as written: markup stays text, the address is a link that opens apart from this page.
    const note = dialog.querySelector('.details__note') as HTMLElement;
    expect(note.textContent).toBe('Ask <b>about</b> fees: https://bank.example/fees.\nThen the card.');
    expect(note.querySelector('b')).toBeNull();
    const link = within(note).getByRole('link', { name: 'https://bank.example/fees' });
    expect(link).toHaveAttribute('href', 'https://bank.example/fees');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    await user.click(within(dialog).getByRole('button', { name: 'Edit note' }));
    const field = within(dialog).getByRole('textbox', { name: 'Note of “Call the bank”' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, '  Branch on Main St{Enter}ask for Ann  ');
    // Escape in the field takes the edit back and leaves the details open.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(writes.sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Edit note' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Note of “Call the bank”' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note of “Call the bank”' }), '  Branch on Main St{Enter}ask for Ann  ');
    await user.click(within(dialog).getByRole('button', { name: 'Save note' }));
    expect(writes.sent).toEqual([{ note: 'Branch on Main St\nask for Ann' }]);
    expect(await screen.findByText('Note saved')).toBeInTheDocument();
    expect((dialog.querySelector('.details__note') as HTMLElement).textContent).toBe('Branch on Main St\nask for Ann');
    expect(within(dialog).getByRole('button', { name: 'Edit note' })).toHaveFocus();
    await waitFor(async () => expect((await serverTask('Call the bank'))?.note).toBe('Branch on Main St\nask for Ann'));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('a note over 10000 characters is refused at the field; an emptied note is removed', async () => {
    const user = userEvent.setup();
    await addTodo('Write the essay', { note: 'Draft' });
    renderPage(<TaskListPage />);
    await screen.findByText('Write the essay');
    await allRowsEntered();
    await user.click(within(rowOf('Write the essay')).getByRole('button', { name: 'Details of “Write the essay”' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Edit note' }));
    const field = within(dialog).getByRole('textbox', { name: 'Note of “Write the essay”' });
    fireEvent.change(field, { target: { value: 'x'.repeat(LIMITS.note.max + 1) } });
    await user.click(within(dialog).getByRole('button', { name: 'Save note' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(NOTE_TOO_LONG_MESSAGE);
    expect(field).toHaveAccessibleDescription(NOTE_TOO_LONG_MESSAGE);
    expect(writes.sent).toEqual([]);

    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save note' }));
    expect(writes.sent).toEqual([{ note: null }]);
    expect(within(dialog).getByText('No note yet.')).toBeInTheDocument();
    await waitFor(async () => expect(await serverTask('Write the essay')).not.toHaveProperty('note'));
  });

  it('the checklist: Enter adds and keeps the focus for the next; tick, rename, move and delete each send one update', async () => {
    const user = userEvent.setup();
    await addTodo('Shop');
    renderPage(<TaskListPage />);
    await screen.findByText('Shop');
    await allRowsEntered();
    await user.click(within(rowOf('Shop')).getByRole('button', { name: 'Details of “Shop”' }));
    const dialog = await screen.findByRole('dialog');
    const add = within(dialog).getByRole('textbox', { name: 'New subtask' });
    await user.click(add);
    await user.keyboard('  Buy milk {Enter}');
    expect(add).toHaveFocus();
    expect(add).toHaveValue('');
    await user.keyboard('Buy bread{Enter}');
    // A blank one is not added, and says nothing; an invisible one says why.
    await user.keyboard('   {Enter}');
    await user.clear(add);
    await user.keyboard('\u200B{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SUBTASK_TITLE_EMPTY_MESSAGE);
    await user.clear(add);

    const items = () => within(dialog).getAllByRole('checkbox').map((box) => [box.closest('label')?.textContent, (box as HTMLInputElement).checked]);
    expect(items()).toEqual([
      ['Buy milk', false],
      ['Buy bread', false],
    ]);
    expect(writes.sent).toHaveLength(2);
    const ids = (writes.sent[1] as { subtasks: { id: string }[] }).subtasks.map((item) => item.id);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(writes.sent).toEqual([{ subtasks: [{ id: ids[0], title: 'Buy milk', done: false }] }, { subtasks: [{ id: ids[0], title: 'Buy milk', done: false }, { id: ids[1], title: 'Buy bread', done: false }] }]);

    await user.click(within(dialog).getByRole('checkbox', { name: 'Buy milk' }));
    expect(within(dialog).getByRole('heading', { name: /Subtasks/ })).toHaveTextContent('Subtasks (1 of 2 subtasks done)');
    expect(within(rowOf('Shop')).getByText('1/2')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Rename “Buy bread”' }));
    const rename = within(dialog).getByRole('textbox', { name: 'Rename “Buy bread”' });
    expect(rename).toHaveFocus();
    await user.clear(rename);
    await user.keyboard('Buy rye bread{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Rename “Buy rye bread”' })).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Move “Buy rye bread” up' }));
    await waitFor(() =>
      expect(items()).toEqual([
        ['Buy rye bread', false],
        ['Buy milk', true],
      ]),
    );
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Move “Buy rye bread” down' })).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Delete subtask “Buy rye bread”' }));
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Buy milk' })).toHaveFocus());
    const [milkId, breadId] = ids;
    expect(writes.sent.slice(2)).toEqual([
      { subtasks: [{ id: milkId, title: 'Buy milk', done: true }, { id: breadId, title: 'Buy bread', done: false }] },
      { subtasks: [{ id: milkId, title: 'Buy milk', done: true }, { id: breadId, title: 'Buy rye bread', done: false }] },
      { subtasks: [{ id: breadId, title: 'Buy rye bread', done: false }, { id: milkId, title: 'Buy milk', done: true }] },
      { subtasks: [{ id: milkId, title: 'Buy milk', done: true }] },
    ]);
    await waitFor(async () => expect((await serverTask('Shop'))?.subtasks).toEqual([{ id: milkId, title: 'Buy milk', done: true }]));
    expect(within(rowOf('Shop')).getByText('1/1')).toBeInTheDocument();
  });

  it('Enter on a row’s checkbox opens its details; the title field renames the task; closing gives the focus back to the checkbox', async () => {
    const user = userEvent.setup();
    await addTodo('Renew passport', { subtasks: [bread] });
    renderPage(<TaskListPage />);
    await screen.findByText('Renew passport');
    await allRowsEntered();
    const checkbox = within(rowOf('Renew passport')).getByRole('checkbox');
    act(() => checkbox.focus());
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Details of “Renew passport”' });
    expect(checkbox).not.toBeChecked();
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.keyboard('{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A task needs a title. Press Escape to keep the old one.');
    await user.keyboard('{Escape}');
    expect(title).toHaveValue('Renew passport');
    await user.type(title, ' by June{Enter}');
    expect(writes.sent).toEqual([{ title: 'Renew passport by June' }]);
    expect(await screen.findByRole('dialog', { name: 'Details of “Renew passport by June”' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(rowOf('Renew passport by June')).getByRole('checkbox')).toHaveFocus();
  });
});

describe('notes and subtasks in a task’s history (docs/PRODUCT.md §10.4, §10.21)', () => {
  signedInWithCelebrationStubs();
  let restoreDialog: () => void = () => undefined;
  beforeEach(() => {
    restoreDialog = stubDialog();
  });
  afterEach(() => restoreDialog());

  it('names the one subtask a change ticked or added, says a note’s change, and Restore puts the checklist back', async () => {
    const user = userEvent.setup();
    const { todo } = await addTodo('Shop', { subtasks: [{ ...milk, done: false }] });
    await updateTodo(todo._id, { subtasks: [milk] });
    await updateTodo(todo._id, { subtasks: [milk, bread] });
    await updateTodo(todo._id, { note: 'Oat' });
    renderPage(<TaskListPage />);
    await screen.findByText('Shop');
    await allRowsEntered();
    await user.click(within(rowOf('Shop')).getByRole('button', { name: 'History of “Shop”' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of “Shop”' });
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(3));
    const text = dialog.textContent ?? '';
    expect(text).toContain('Note added');
    expect(text).toContain('Subtask added: Buy bread');
    expect(text).toContain('Subtask done: Buy milk');
    await user.click(within(dialog).getAllByRole('button', { name: 'Restore the subtasks' })[0] as HTMLElement);
    await waitFor(async () => expect((await serverTask('Shop'))?.subtasks).toEqual([milk]));
    expect(within(rowOf('Shop')).getByText('1/1')).toBeInTheDocument();
  });
});

describe('the details on a phone (docs/PRODUCT.md §10.21)', () => {
  onASmallScreenWithDialogs();

  it('a tap on the title opens them (not the title editor); Details… is in More actions; Edit still edits the title in the row', async () => {
    const user = userEvent.setup();
    await addTodo('Pack the bags', { note: 'Passport!' });
    renderPage(<TaskListPage />);
    await screen.findByText('Pack the bags');
    await allRowsEntered();
    await user.click(within(rowOf('Pack the bags')).getByText('Pack the bags'));
    const dialog = await screen.findByRole('dialog', { name: 'Details of “Pack the bags”' });
    expect(within(dialog).getByText('Passport!')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Edit “Pack the bags”' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    // Nothing had the focus (a tap on text): it goes to the row.
    await waitFor(() => expect(within(rowOf('Pack the bags')).getByRole('checkbox')).toHaveFocus());

    const trigger = within(rowOf('Pack the bags')).getByRole('button', { name: 'More actions for “Pack the bags”' });
    await user.click(trigger);
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Details…' }));
    await screen.findByRole('dialog', { name: 'Details of “Pack the bags”' });
    await user.keyboard('{Escape}');
    expect(trigger).toHaveFocus();

    await user.click(trigger);
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Edit' }));
    expect(await screen.findByRole('textbox', { name: 'Edit “Pack the bags”' })).toHaveFocus();
  });
});
