import { addTodo, personTimeZone, remindersQueryKey } from '@tm/api-client';
import { MISSED_REASONS, type ReminderItem, type RemindersResponse } from '@tm/contracts';
import { renderPage, testQueryClient } from '@tm/web-test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { signedInWithCelebrationStubs } from '../../../test/page-helpers';

// A reminder that reached no browser shows on its task's row (docs/PRODUCT.md §10.17): "Reminder missed" in words,
// why read with the checkbox and as a tooltip; gone once the task is completed or seen.

const rowOf = (title: string) => {
  const row = screen.getByText(title).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};

const missed = (todoId: string, due: string, reason: string): ReminderItem => ({
  todoId,
  title: 'as it was',
  due,
  minutes: 0,
  fireAt: new Date(Date.now() - 60_000).toISOString(),
  state: 'missed',
  reason,
});

const remindersOf = (items: ReminderItem[]): RemindersResponse => ({ publicKey: null, timeZone: personTimeZone(undefined), upcoming: [], missed: items });

describe('a missed reminder on the task list', () => {
  signedInWithCelebrationStubs();

  it('marks its task’s row with why, not a task whose date moved since, and leaves once the task is completed', async () => {
    const user = userEvent.setup();
    const { todo: plumber } = await addTodo('Call the plumber', '2030-03-14T09:00');
    const { todo: moved } = await addTodo('Renew passport', '2030-03-20');
    await addTodo('No reminder here');
    const reason = MISSED_REASONS.refused('500 Internal Server Error');
    const queryClient = testQueryClient();
    // Read already (the shell reads them for the whole page): the list asks for nothing more.
    queryClient.setQueryData(remindersQueryKey, remindersOf([missed(plumber._id, '2030-03-14T09:00', reason), missed(moved._id, '2030-03-13', MISSED_REASONS.noBrowser)]), {
      updatedAt: Date.now() + 60 * 60_000,
    });
    renderPage(<TaskListPage />, { queryClient });
    await screen.findByText('No reminder here');

    const mark = within(rowOf('Call the plumber')).getByText('Reminder missed');
    expect(mark).toHaveAttribute('title', reason);
    const checkbox = screen.getByRole('checkbox', { name: 'Mark “Call the plumber” as completed' });
    expect(checkbox).toHaveAccessibleDescription(new RegExp(`Reminder missed ?: ${reason.replace(/[()]/g, '\\$&')}$`));
    expect(screen.getAllByText('Reminder missed')).toHaveLength(1);
    expect(screen.getByRole('checkbox', { name: 'Mark “Renew passport” as completed' })).not.toHaveAccessibleDescription(/Reminder missed/);

    await user.click(checkbox);
    await waitFor(() => expect(within(rowOf('Call the plumber')).queryByText('Reminder missed')).not.toBeInTheDocument());
  });

  it('leaves the row once the reminder is seen (no longer in the missed list)', async () => {
    const { todo } = await addTodo('Water the plants', '2030-03-14');
    const queryClient = testQueryClient();
    queryClient.setQueryData(remindersQueryKey, remindersOf([missed(todo._id, '2030-03-14', MISSED_REASONS.noBrowser)]), { updatedAt: Date.now() + 60 * 60_000 });
    renderPage(<TaskListPage />, { queryClient });
    expect(await screen.findByText('Reminder missed')).toBeInTheDocument();
    act(() => {
      queryClient.setQueryData(remindersQueryKey, remindersOf([]));
    });
    await waitFor(() => expect(screen.queryByText('Reminder missed')).not.toBeInTheDocument());
  });
});
