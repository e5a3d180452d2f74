import { addTodo, browserTimeZone, todosQuery, updateTodo } from '@tm/api-client';
import { addDays, todayIn } from '@tm/contracts';
import { FakeEventSource, renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import InsightsPage from './insights-page';

/** The value shown for one of the screen's figures. */
const figure = (label: string) => within(screen.getByText(label, { selector: 'dt' }).closest('div')!).getByRole('definition').textContent;

describe('the insights page', () => {
  let uninstall: () => void;
  beforeEach(async () => {
    uninstall = FakeEventSource.install();
    await signUpNewUser('Ada Lovelace');
  });
  afterEach(() => uninstall());

  it('renders in a region named by its heading, from the real list of a signed-in user', async () => {
    const { todo: done } = await addTodo('done today');
    await addTodo('still open');
    const { todo: pinned } = await addTodo('pinned and open');
    await updateTodo(done._id, { completed: true });
    await updateTodo(pinned._id, { isPinned: true });
    renderPage(<InsightsPage />, { route: '/insights' });

    expect(screen.getByRole('region', { name: 'Insights' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Insights' })).toBeInTheDocument();
    expect(await screen.findByText('Current streak')).toBeInTheDocument();
    expect(figure('Open')).toBe('2');
    expect(figure('Completed')).toBe('1');
    expect(figure('Pinned')).toBe('1');
    expect(figure('Completed this week')).toBe('1');
    expect(figure('Current streak')).toBe('1day');
    // The chart's figures, for screen readers, as a table: 28 days, today's completion on the last row.
    const table = screen.getByRole('table');
    expect(within(table).getByText(/^Tasks completed per day, last 28 days: 1 in all/)).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(28);
    expect(within(rows.at(-1)!).getByRole('cell')).toHaveTextContent('1');
  });

  it('follows a task ticked elsewhere from the live stream, without fetching the list again', async () => {
    const { todo } = await addTodo('ticked on the phone');
    const { queryClient } = renderPage(<InsightsPage />, { route: '/insights' });
    await screen.findByText('Current streak');
    expect(figure('Completed')).toBe('0');
    const { cursor } = queryClient.getQueryData(todosQuery().queryKey)!;
    const source = await waitFor(() => {
      const latest = FakeEventSource.latest();
      if (!latest) throw new Error('no stream yet');
      return latest;
    });
    expect(source.url).toBe(`/api/todo/events?after=${cursor}`);
    const { todo: ticked } = await updateTodo(todo._id, { completed: true });
    const next = String(BigInt(cursor) + 1n);
    await act(async () => {
      source.emit('change', { id: next, origin: 'another-page', saved: [ticked], removed: [] }, next);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await waitFor(() => expect(figure('Completed')).toBe('1'));
    expect(figure('Completed this week')).toBe('1');
  });

  it('counts each completed occurrence of a repeating task on its day, the task itself staying open (PRODUCT §10.16)', async () => {
    const today = todayIn(browserTimeZone());
    const { todo } = await addTodo('Water the plants', { due: today, repeat: 'FREQ=DAILY' });
    const first = await updateTodo(todo._id, { completed: true }, today);
    expect(first.todo).toMatchObject({ completed: false, due: addDays(today, 1) });
    await updateTodo(todo._id, { completed: true }, today);
    renderPage(<InsightsPage />, { route: '/insights' });
    await screen.findByText('Current streak');
    expect(figure('Open')).toBe('1');
    expect(figure('Completed')).toBe('2');
    expect(figure('Completed this week')).toBe('2');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows.at(-1)!).getByRole('cell')).toHaveTextContent('2');
  });
});
