import { addTodo, fetchTodos, updateTodo } from '@tm/api-client';
import { addDays } from '@tm/contracts';
import { FakeEventSource, renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AgendaPage from './agenda-page';

// Today and Upcoming (docs/PRODUCT.md §10.15), rendered as the shell renders it, against the real gateway and
// services: what the screen does is checked on the server.

const pad = (value: number) => String(value).padStart(2, '0');
const now = new Date();
const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
const section = (name: RegExp) => screen.getByRole('region', { name });
const titlesIn = (name: RegExp) => within(section(name)).queryAllByRole('link').map((link) => link.textContent);

describe('the Today screen', () => {
  let uninstall: () => void;
  beforeEach(async () => {
    uninstall = FakeEventSource.install();
    await signUpNewUser('Ada Lovelace');
  });
  afterEach(() => uninstall());

  it('shows overdue tasks, today’s, then the next days under their own headings; no undated, done or far-off ones', async () => {
    await addTodo('No date');
    await addTodo('Far off', addDays(today, 9));
    await addTodo('Last week', addDays(today, -7));
    await addTodo('Water the plants', today);
    await addTodo('Call the dentist', `${today}T09:00`);
    await addTodo('Pay rent', addDays(today, 1));
    const { todo: done } = await addTodo('Done already', today);
    await updateTodo(done._id, { completed: true });
    renderPage(<AgendaPage />, { route: '/today' });

    expect(screen.getByRole('heading', { level: 1, name: 'Today' })).toBeInTheDocument();
    await screen.findByText('Water the plants');
    expect(titlesIn(/^Overdue/)).toEqual(['Last week']);
    expect(titlesIn(/^Today \d/)).toEqual(['Call the dentist', 'Water the plants']);
    expect(titlesIn(/^Tomorrow/)).toEqual(['Pay rent']);
    expect(screen.getByRole('heading', { level: 2, name: 'Today 2 tasks' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Tomorrow 1 task' })).toBeInTheDocument();
    for (const absent of ['No date', 'Far off', 'Done already']) expect(screen.queryByText(absent)).not.toBeInTheDocument();
    // An overdue task says so in words, read with its checkbox.
    expect(screen.getByRole('checkbox', { name: 'Mark “Last week” as completed' })).toHaveAccessibleDescription(/^Overdue: /);
    // Its title opens it in the task list.
    expect(screen.getByRole('link', { name: 'Pay rent' })).toHaveAttribute('href', '/');
  });

  it('completes a task and reschedules another to tomorrow keeping its time, on the server, the focus moving on', async () => {
    const user = userEvent.setup();
    await addTodo('Call the dentist', `${today}T09:00`);
    await addTodo('Water the plants', today);
    renderPage(<AgendaPage />, { route: '/today' });
    await screen.findByText('Water the plants');

    await user.click(screen.getByRole('checkbox', { name: 'Mark “Call the dentist” as completed' }));
    await waitFor(() => expect(screen.queryByText('Call the dentist')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Mark “Water the plants” as completed' })).toHaveFocus();

    const reschedule = screen.getByRole('button', { name: 'Reschedule “Water the plants”' });
    expect(reschedule).toHaveAttribute('aria-expanded', 'false');
    await user.click(reschedule);
    expect(reschedule).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(screen.getByRole('group', { name: 'New date for “Water the plants”' })).getByRole('button', { name: 'Tomorrow' }));
    await waitFor(() => expect(titlesIn(/^Tomorrow/)).toEqual(['Water the plants']));
    expect(screen.getByText('Nothing due today.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Water the plants' })).toHaveFocus();

    const saved = await fetchTodos();
    expect(saved.map(({ title, completed, due }) => ({ title, completed, due }))).toEqual([
      { title: 'Water the plants', completed: false, due: addDays(today, 1) },
      { title: 'Call the dentist', completed: true, due: `${today}T09:00` },
    ]);
  });

  it('moves a task to a date typed in, keeping its time', async () => {
    const user = userEvent.setup();
    await addTodo('Book flights', `${addDays(today, 2)}T18:30`);
    renderPage(<AgendaPage />, { route: '/today' });
    await user.click(await screen.findByRole('button', { name: 'Reschedule “Book flights”' }));
    const group = screen.getByRole('group', { name: 'New date for “Book flights”' });
    await user.type(within(group).getByLabelText('Date'), addDays(today, 4));
    await user.click(within(group).getByRole('button', { name: 'Move' }));
    await waitFor(async () => expect((await fetchTodos())[0]?.due).toBe(`${addDays(today, 4)}T18:30`));
  });
});
