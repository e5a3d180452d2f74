import { addTodo, fetchTodos, http, newIdempotencyKey, personTimeZone, remindersQueryKey, updateTodo } from '@tm/api-client';
import { addDays, IDEMPOTENCY_KEY_HEADER, MISSED_REASONS, type ListResponse, type RemindersResponse } from '@tm/contracts';
import { FakeEventSource, renderPage, signUpNewUser, testQueryClient } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import AgendaPage from './agenda-page';

// Today and Upcoming (docs/PRODUCT.md §10.15), rendered as the shell renders it, against the real gateway and
// services: what the screen does is checked on the server.

const pad = (value: number) => String(value).padStart(2, '0');
const now = new Date();
const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
const section = (name: RegExp) => screen.getByRole('region', { name });
const titlesIn = (name: RegExp) => within(section(name)).queryAllByRole('link').map((link) => link.textContent);
/** The toast that starts with these words (a live region of the toaster). */
const toastSaying = (words: string) =>
  waitFor(() => {
    const found = screen.queryAllByRole('status').find((element) => element.closest('[data-rht-toaster]') && element.textContent?.startsWith(words));
    expect(found).toBeDefined();
    return found!;
  });

// Every test starts signed in as a new user, with the live stream's EventSource faked and no toast left over.
let uninstall: () => void;
beforeEach(async () => {
  uninstall = FakeEventSource.install();
  await signUpNewUser('Ada Lovelace');
});
afterEach(() => {
  uninstall();
  act(() => toast.remove());
});

describe('the Today screen', () => {

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

  it('leaves out the tasks of an archived list, as the task list does (PRODUCT §10.19 "Archive")', async () => {
    const headers = { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() };
    const trip = (await http.post<ListResponse>('/todo/lists', { name: 'Trip' }, { headers })).data.list;
    await http.put(`/todo/lists/${trip._id}`, { archived: true }, { headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } });
    await addTodo('Pack the tent', { due: today, listId: trip._id });
    await addTodo('Water the plants', today);
    renderPage(<AgendaPage />, { route: '/today' });
    await screen.findByText('Water the plants');
    expect(titlesIn(/^Today \d/)).toEqual(['Water the plants']);
    expect(screen.queryByText('Pack the tent')).not.toBeInTheDocument();
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

describe('Undo on the Today screen (docs/PRODUCT.md §10.11.4, §10.15)', () => {

  it('a completed task offers Undo in the task list’s words; Undo brings it back, on the server too, the focus on its checkbox', async () => {
    const user = userEvent.setup();
    await addTodo('Water the plants', today);
    await addTodo('Call the dentist', `${today}T09:00`);
    const before = await fetchTodos();
    renderPage(<AgendaPage />, { route: '/today' });
    await user.click(await screen.findByRole('checkbox', { name: 'Mark “Call the dentist” as completed' }));
    await waitFor(() => expect(screen.queryByText('Call the dentist')).not.toBeInTheDocument());

    const offer = await toastSaying('Task completed');
    expect(offer).toHaveTextContent('Task completed“Call the dentist”Press U to undo.Undo');
    const undo = within(offer).getByRole('button', { name: 'Undo completing “Call the dentist”' });
    expect(undo).toHaveAttribute('aria-keyshortcuts', 'u');
    await waitFor(async () => expect((await fetchTodos()).find((todo) => todo.title === 'Call the dentist')?.completed).toBe(true));

    await user.click(undo);
    await waitFor(() => expect(titlesIn(/^Today \d/)).toEqual(['Call the dentist', 'Water the plants']));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mark “Call the dentist” as completed' })).toHaveFocus());
    expect(await toastSaying('1 task restored')).toBeInTheDocument();
    // Exactly as before the tick: completed, completedAt and updatedAt.
    await waitFor(async () => expect(await fetchTodos()).toEqual(before));
  });

  it('U undoes the newest tick; a repeating task says so and gets its date and completions back', async () => {
    const user = userEvent.setup();
    await addTodo('Stretch', { due: today, repeat: 'FREQ=DAILY' });
    await addTodo('Pay rent', today);
    const before = await fetchTodos();
    renderPage(<AgendaPage />, { route: '/today' });
    await user.click(await screen.findByRole('checkbox', { name: 'Mark “Stretch” as completed' }));
    // Done for today: it moves to tomorrow, and the toast says the server's words.
    const offer = await toastSaying('Task completed; it repeats');
    expect(within(offer).getByRole('button', { name: 'Undo completing “Stretch”' })).toBeInTheDocument();
    await waitFor(() => expect(titlesIn(/^Tomorrow/)).toEqual(['Stretch']));

    await user.keyboard('u');
    await waitFor(() => expect(titlesIn(/^Today \d/)).toEqual(['Pay rent', 'Stretch']));
    await waitFor(async () => expect(await fetchTodos()).toEqual(before));
    // Nothing left to undo: U again changes nothing.
    await user.keyboard('u');
    expect(titlesIn(/^Today \d/)).toEqual(['Pay rent', 'Stretch']);
  });

  it('a task moved to another day says so, with no Undo (the task list offers none for a date either)', async () => {
    const user = userEvent.setup();
    await addTodo('Book flights', today);
    renderPage(<AgendaPage />, { route: '/today' });
    await user.click(await screen.findByRole('button', { name: 'Reschedule “Book flights”' }));
    await user.click(within(screen.getByRole('group', { name: 'New date for “Book flights”' })).getByRole('button', { name: 'Tomorrow' }));
    const said = await toastSaying('Due date set');
    expect(within(said).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('a missed reminder on the Today screen (docs/PRODUCT.md §10.17)', () => {
  let uninstall: () => void;
  beforeEach(async () => {
    uninstall = FakeEventSource.install();
    await signUpNewUser('Ada Lovelace');
  });
  afterEach(() => uninstall());

  it('is marked on its task’s row in words, read with its checkbox with why; not on a task whose date moved since', async () => {
    const { todo: plumber } = await addTodo('Call the plumber', `${today}T08:00`);
    const { todo: moved } = await addTodo('Renew passport', today);
    await addTodo('Water the plants', today);
    const missed = (todoId: string, due: string, reason: string) => ({ todoId, title: 'x', due, minutes: 0, fireAt: new Date().toISOString(), state: 'missed' as const, reason });
    const queryClient = testQueryClient();
    const reminders: RemindersResponse = {
      publicKey: null,
      timeZone: personTimeZone(undefined),
      upcoming: [],
      missed: [missed(plumber._id, `${today}T08:00`, MISSED_REASONS.noBrowser), missed(moved._id, addDays(today, -1), MISSED_REASONS.noBrowser)],
    };
    // Read already (the shell reads them for the whole page): the screen asks for nothing more.
    queryClient.setQueryData(remindersQueryKey, reminders, { updatedAt: Date.now() + 60 * 60_000 });
    renderPage(<AgendaPage />, { route: '/today', queryClient });
    await screen.findByText('Water the plants');

    const marks = screen.getAllByText('Reminder missed');
    expect(marks).toHaveLength(1);
    expect(marks[0]!.closest('li')).toHaveTextContent('Call the plumber');
    expect(marks[0]).toHaveAttribute('title', MISSED_REASONS.noBrowser);
    expect(screen.getByRole('checkbox', { name: 'Mark “Call the plumber” as completed' })).toHaveAccessibleDescription(
      new RegExp(`Reminder missed ?: ${MISSED_REASONS.noBrowser}$`),
    );
    expect(screen.getByRole('checkbox', { name: 'Mark “Renew passport” as completed' })).not.toHaveAccessibleDescription(/Reminder missed/);
  });
});
