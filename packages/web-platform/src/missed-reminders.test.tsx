import { personTimeZone, remindersQueryKey } from '@tm/api-client';
import { MISSED_REASONS, type ReminderItem, type RemindersResponse } from '@tm/contracts';
import { cachedTodo, signUpNewUser } from '@tm/web-test-support';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { ReactNode } from 'react';
import { createQueryClient } from './query-client';
import { MissedReminderMark, missedReminderOf, ReminderAlerts, useMissedReminders } from './reminders';
import { AppToaster } from './toaster';

// A reminder that reached no browser shows on its task's row (docs/PRODUCT.md §10.17): one lookup for the list,
// a mark in words with why, gone once seen, once the task has another date, or once it is completed.

const TASK = '0123456789abcdef01234567';
const OTHER = '0123456789abcdef01234568';

function missedItem(todoId: string, due: string, fireAt: string, reason: string = MISSED_REASONS.noBrowser): ReminderItem {
  return { todoId, title: 'Call the plumber', due, minutes: 0, fireAt, state: 'missed', reason };
}

function reminders(missed: ReminderItem[]): RemindersResponse {
  return { publicKey: null, timeZone: personTimeZone(undefined), upcoming: [], missed };
}

/** A client whose reminders are already read (and fresh for a while, so nothing reads them again). */
function clientWith(missed: ReminderItem[]) {
  const client = createQueryClient();
  client.setQueryData(remindersQueryKey, reminders(missed), { updatedAt: Date.now() + 60 * 60_000 });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

describe('missedReminderOf', () => {
  const newest = missedItem(TASK, '2027-03-14T09:00', '2027-03-14T08:00:00.000Z');
  const missed = new Map([[TASK, newest]]);
  const task = { ...cachedTodo('Call the plumber'), _id: TASK, due: '2027-03-14T09:00' };

  it('marks an open task at the date its reminder was for', () => {
    expect(missedReminderOf(missed, task)).toBe(newest);
  });

  it('leaves it behind once the task has another date or is completed, and marks no other task', () => {
    expect(missedReminderOf(missed, { ...task, due: '2027-03-15T09:00' })).toBeUndefined();
    expect(missedReminderOf(missed, { ...task, completed: true })).toBeUndefined();
    expect(missedReminderOf(missed, { ...task, _id: OTHER })).toBeUndefined();
    expect(missedReminderOf(new Map(), task)).toBeUndefined();
  });
});

describe('useMissedReminders', () => {
  it('gives each task its newest missed reminder, the same map from one render to the next', () => {
    const newest = missedItem(TASK, '2027-03-14T09:00', '2027-03-14T09:00:00.000Z', MISSED_REASONS.refused('500 Internal Server Error'));
    const older = missedItem(TASK, '2027-03-14T09:00', '2027-03-14T08:00:00.000Z');
    const other = missedItem(OTHER, '2027-03-13', '2027-03-13T08:00:00.000Z');
    const { wrapper } = clientWith([newest, other, older]);
    const { result, rerender } = renderHook(() => useMissedReminders(), { wrapper });
    expect([...result.current.entries()]).toEqual([
      [TASK, newest],
      [OTHER, other],
    ]);
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });

  it('is one shared empty map when nothing was missed', () => {
    const { wrapper } = clientWith([]);
    const { result, rerender } = renderHook(() => useMissedReminders(), { wrapper });
    const first = result.current;
    expect(first.size).toBe(0);
    rerender();
    expect(result.current).toBe(first);
  });
});

describe('the mark on a row', () => {
  it('says "Reminder missed" in words, with why as its tooltip and read with the row’s checkbox', () => {
    const reason = MISSED_REASONS.unreachable('connect ECONNREFUSED');
    render(
      <>
        <input type="checkbox" aria-label="Mark “Call the plumber” as completed" aria-describedby="mark" />
        <MissedReminderMark id="mark" reminder={missedItem(TASK, '2027-03-14', '2027-03-14T08:00:00.000Z', reason)} />
      </>,
    );
    const mark = screen.getByText('Reminder missed');
    expect(mark).toHaveAttribute('title', reason);
    // The visible words, then why (a hidden part of the mark).
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription(/^Reminder missed ?: The push service could not be reached: connect ECONNREFUSED$/);
  });
});

describe('a missed reminder seen', () => {
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
  });
  afterEach(() => {
    act(() => toast.remove());
  });

  it('Open on its toast marks it seen, and its mark leaves the row at once', async () => {
    const user = userEvent.setup();
    const item = missedItem(TASK, '2027-03-14T09:00', new Date(Date.now() - 60_000).toISOString());
    const { client, wrapper } = clientWith([item]);
    const open = jest.fn();
    const { result } = renderHook(() => useMissedReminders(), { wrapper });
    render(
      <QueryClientProvider client={client}>
        <ReminderAlerts open={open} />
        <AppToaster />
      </QueryClientProvider>,
    );
    expect(result.current.get(TASK)).toEqual(item);
    const notice = await screen.findByText(/^Missed reminder: Call the plumber/);
    expect(notice.closest('.reminder-toast')).toHaveTextContent(MISSED_REASONS.noBrowser);
    await user.click(within(notice.closest('.reminder-toast') as HTMLElement).getByRole('button', { name: 'Open' }));
    expect(open).toHaveBeenCalledWith(TASK);
    await waitFor(() => expect(result.current.size).toBe(0));
  });
});
