import { addTodo, fetchTodos, http } from '@tm/api-client';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import toast from 'react-hot-toast';
import TaskListPage from '../../../expose/task-list-page';
import { stubAudioPlay, stubDialog } from '../../../test/browser-stubs';
import { allRowsEntered, onASmallScreenWithDialogs, rowOf, sleep } from '../../../test/page-helpers';
import { dueFromFields, QUICK_CHOICES } from './task-due-dialog';

// The due-date picker of a task (docs/PRODUCT.md §10.14), on the page against the real gateway and services.

/** A local calendar day `offset` days from today, as a due date takes it. */
function day(offset: number): string {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The task updates the page sends from now on (method and path), observed on the HTTP client, not replaced. */
function recordUpdates(): { sent: string[]; stop: () => void } {
  const sent: string[] = [];
  const id = http.interceptors.request.use((config) => {
    if (config.url?.includes('/todo/update-todo/')) sent.push(`${config.method?.toUpperCase()} ${config.url}`);
    return config;
  });
  return { sent, stop: () => http.interceptors.request.eject(id) };
}

const serverDue = async (title: string) => (await fetchTodos()).find((todo) => todo.title === title)?.due;
const dueOnRow = (title: string) => rowOf(title).querySelector('.tasks-item__due')?.textContent ?? null;
const dateField = (dialog: HTMLElement) => within(dialog).getByLabelText('Date');
const timeField = (dialog: HTMLElement) => within(dialog).getByLabelText('Time (optional)');
/** The text that describes a field (its aria-describedby), as a screen reader reads it with the field. */
const description = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe("a task's due-date picker (docs/PRODUCT.md §10.14)", () => {
  let restoreDialog: () => void;
  let updates: ReturnType<typeof recordUpdates>;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    restoreDialog = stubDialog();
    updates = recordUpdates();
    // A person's first press on the page fetches the dialog (off the first load), as in a browser.
    fireEvent.pointerDown(document.body);
    await sleep(0);
  });
  afterEach(() => {
    updates.stop();
    restoreDialog();
    jest.restoreAllMocks();
  });

  it('sets a date, then a date and time, then Tomorrow from the quick choices; the focus goes back to the row’s button each time', async () => {
    const user = userEvent.setup();
    await addTodo('Renew passport');
    const { container } = renderPage(<TaskListPage />);
    await screen.findByText('Renew passport');
    await allRowsEntered();
    const button = within(rowOf('Renew passport')).getByRole('button', { name: 'Due date of “Renew passport”' });
    expect(button).toHaveAttribute('title', 'Due date of “Renew passport”');
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');

    // A date, typed, and Enter.
    await user.click(button);
    let dialog = await screen.findByRole('dialog', { name: 'Due date of “Renew passport”' });
    expect(dateField(dialog)).toHaveFocus();
    expect(dateField(dialog)).toHaveAttribute('type', 'date');
    expect(dateField(dialog)).toHaveValue('');
    expect(timeField(dialog)).toHaveAttribute('type', 'time');
    // No due date yet: nothing to remove.
    expect(within(dialog).queryByRole('button', { name: 'Remove due date' })).not.toBeInTheDocument();
    expect(within(dialog).getAllByRole('button').map((control) => control.textContent)).toEqual(['Today', 'Tomorrow', 'Next week', 'Save', 'Cancel']);
    // Nothing serious for assistive technology in the open dialog.
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null); // axe's icon check; jsdom has no canvas
    const { violations } = await axe.run(container);
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

    await user.type(dateField(dialog), '2027-03-14{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await waitFor(async () => expect(await serverDue('Renew passport')).toBe('2027-03-14'));
    await waitFor(() => expect(dueOnRow('Renew passport')).toMatch(/^Due .*14.*2027$|^Due .*2027.*14/));

    // It opens on that date; a time is added and saved with Save.
    await user.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Due date of “Renew passport”' });
    expect(dateField(dialog)).toHaveValue('2027-03-14');
    expect(timeField(dialog)).toHaveValue('');
    await user.type(timeField(dialog), '09:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await waitFor(async () => expect(await serverDue('Renew passport')).toBe('2027-03-14T09:30'));

    // Tomorrow fills the date and keeps the time.
    await user.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Due date of “Renew passport”' });
    expect(timeField(dialog)).toHaveValue('09:30');
    await user.click(within(dialog).getByRole('button', { name: 'Tomorrow' }));
    expect(dateField(dialog)).toHaveValue(day(1));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(button).toHaveFocus();
    await waitFor(async () => expect(await serverDue('Renew passport')).toBe(`${day(1)}T09:30`));
    await waitFor(() => expect(dueOnRow('Renew passport')).toMatch(/^Due Tomorrow 09:30/));
    expect(updates.sent).toHaveLength(3);
  });

  it('removes a due date, sends nothing for the same value again, and Escape changes nothing', async () => {
    const user = userEvent.setup();
    await addTodo('Pay the rent', '2027-05-01T18:00');
    renderPage(<TaskListPage />);
    await screen.findByText('Pay the rent');
    await allRowsEntered();
    const button = within(rowOf('Pay the rent')).getByRole('button', { name: 'Due date of “Pay the rent”' });

    // Save on the value it has: the dialog closes, nothing is sent.
    await user.click(button);
    let dialog = await screen.findByRole('dialog', { name: 'Due date of “Pay the rent”' });
    expect(dateField(dialog)).toHaveValue('2027-05-01');
    expect(timeField(dialog)).toHaveValue('18:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();

    // Another date typed, then Escape: closed, nothing sent, the task as it was.
    await user.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Due date of “Pay the rent”' });
    await user.clear(dateField(dialog));
    await user.type(dateField(dialog), '2028-01-02');
    expect(dateField(dialog)).toHaveValue('2028-01-02');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await sleep(200);
    expect(updates.sent).toEqual([]);
    expect(await serverDue('Pay the rent')).toBe('2027-05-01T18:00');

    // Cancel starts from the task's due date again, and changes nothing either.
    await user.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Due date of “Pay the rent”' });
    expect(dateField(dialog)).toHaveValue('2027-05-01');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(updates.sent).toEqual([]);

    // Remove due date.
    await user.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Due date of “Pay the rent”' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove due date' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await waitFor(async () => expect((await fetchTodos()).find((todo) => todo.title === 'Pay the rent')).not.toHaveProperty('due'));
    await waitFor(() => expect(dueOnRow('Pay the rent')).toBeNull());
    expect(updates.sent).toHaveLength(1);
  });

  it('sets a weekly repeat on chosen days and a reminder, with the next five dates shown before saving (PRODUCT §10.16, §10.17)', async () => {
    const user = userEvent.setup();
    // 1 March 2027 is a Monday.
    await addTodo('Team sync', '2027-03-01T10:00');
    renderPage(<TaskListPage />);
    await screen.findByText('Team sync');
    await allRowsEntered();
    await user.click(within(rowOf('Team sync')).getByRole('button', { name: 'Due date of “Team sync”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Due date of “Team sync”' });
    const repeat = within(dialog).getByRole('combobox', { name: 'Repeat' });
    expect(repeat).toHaveValue('none');
    await user.selectOptions(repeat, 'weekly');
    // The due date's own weekday starts ticked; Thursday is added.
    expect(within(dialog).getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Thursday' }));
    expect(description(repeat).split(' · ')).toHaveLength(5);
    expect(description(repeat)).toMatch(/^Next: /);
    await user.click(within(dialog).getByRole('checkbox', { name: '10 minutes before' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(async () =>
      expect((await fetchTodos()).find((todo) => todo.title === 'Team sync')).toMatchObject({ due: '2027-03-01T10:00', repeat: 'FREQ=WEEKLY;BYDAY=MO,TH', reminders: [10] }),
    );
    await waitFor(() => expect(rowOf('Team sync').querySelector('.tasks-item__plan')?.textContent).toBe('Repeats · 1 reminder'));
    // One update, with only what changed: the date stays as it was.
    expect(updates.sent).toHaveLength(1);
  });

  it('refuses a time without a date, and a year outside 1970–2999, at the Date field and in words', async () => {
    const user = userEvent.setup();
    await addTodo('Plan the party');
    renderPage(<TaskListPage />);
    await screen.findByText('Plan the party');
    await allRowsEntered();
    await user.click(within(rowOf('Plan the party')).getByRole('button', { name: 'Due date of “Plan the party”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Due date of “Plan the party”' });

    // A time alone.
    await user.type(timeField(dialog), '10:15');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(dialog).toBeInTheDocument();
    expect(dateField(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(description(dateField(dialog))).toBe('Choose a date for this time, or clear the time.');
    expect(within(dialog).getByText('Choose a date for this time, or clear the time.')).toBeVisible();
    expect(dateField(dialog)).toHaveFocus();
    expect(timeField(dialog)).not.toHaveAttribute('aria-invalid');

    // A year the service does not take.
    await user.type(dateField(dialog), '3000-01-01');
    expect(dateField(dialog)).not.toHaveAttribute('aria-invalid'); // a change takes the message away
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(dateField(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(description(dateField(dialog))).toBe('Choose a date from 1970 to 2999.');
    expect(dateField(dialog)).toHaveFocus();

    // A quick choice puts it right, and Save goes through.
    await user.click(within(dialog).getByRole('button', { name: 'Today' }));
    expect(dateField(dialog)).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(async () => expect(await serverDue('Plan the party')).toBe(`${day(0)}T10:15`));
    expect(updates.sent).toHaveLength(1);
  });
});

describe('the Due date action in the menu of small screens', () => {
  onASmallScreenWithDialogs();

  it('is reached with the keyboard; the dialog opens in its Date field and gives the focus back to the menu button', async () => {
    const user = userEvent.setup();
    await addTodo('Call the bank');
    renderPage(<TaskListPage />);
    const trigger = await screen.findByRole('button', { name: 'More actions for “Call the bank”' });
    await allRowsEntered();

    act(() => trigger.focus());
    await user.keyboard('{ArrowUp}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toHaveFocus());
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}'); // past "Move to…" (§10.19), "Labels…" and "Priority…" (§10.20)
    expect(within(menu).getByRole('menuitem', { name: 'Due date…' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    const dialog = await screen.findByRole('dialog', { name: 'Due date of “Call the bank”' });
    await waitFor(() => expect(dateField(dialog)).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Tomorrow' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    await waitFor(async () => expect(await serverDue('Call the bank')).toBe(day(1)));
    await waitFor(() => expect(dueOnRow('Call the bank')).toBe('Due Tomorrow'));
  });
});

describe('what the fields say, as a due date', () => {
  it('takes a day, a day and a time, or nothing; refuses half-typed fields and impossible days in words', () => {
    expect(dueFromFields('2027-03-14', '')).toEqual({ due: '2027-03-14' });
    expect(dueFromFields('2027-03-14', '09:05')).toEqual({ due: '2027-03-14T09:05' });
    expect(dueFromFields('', '')).toEqual({ due: null });
    expect(dueFromFields('', '09:05')).toEqual({ field: 'date', message: 'Choose a date for this time, or clear the time.' });
    expect(dueFromFields('1969-12-31', '')).toEqual({ field: 'date', message: 'Choose a date from 1970 to 2999.' });
    expect(dueFromFields('275760-01-01', '')).toEqual({ field: 'date', message: 'Choose a date from 1970 to 2999.' });
    expect(dueFromFields('2027-02-30', '')).toEqual({ field: 'date', message: expect.stringMatching(/^Enter a real date/) as unknown });
    expect(dueFromFields('2027-03-14', '24:00')).toEqual({ field: 'time', message: expect.stringMatching(/^Enter a real date/) as unknown });
    expect(dueFromFields('', '', true)).toEqual({ field: 'date', message: 'Enter a whole date: day, month and year.' });
    expect(dueFromFields('2027-03-14', '', false, true)).toEqual({ field: 'time', message: 'Enter a whole time (hours and minutes), or clear it.' });
  });

  it('takes "Next week" to be the next Monday: a Monday’s is seven days on', () => {
    const nextWeek = QUICK_CHOICES.find((choice) => choice.label === 'Next week');
    // Saturday 13, Sunday 14, Monday 15, Wednesday 17 March 2027 (local time).
    expect([13, 14, 15, 17, 21].map((date) => nextWeek?.day(new Date(2027, 2, date, 23, 30)))).toEqual(['2027-03-15', '2027-03-15', '2027-03-22', '2027-03-22', '2027-03-22']);
    expect(QUICK_CHOICES.map((choice) => choice.day(new Date(2027, 11, 31, 12)))).toEqual(['2027-12-31', '2028-01-01', '2028-01-03']);
  });
});
