import { describeError, fetchCalendarFeed, turnOffCalendarFeed, turnOnCalendarFeed } from '@tm/api-client';
import type { CalendarFeedState } from '@tm/contracts';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Shown when a failed call carries no server message (network error, timeout, a 5xx page). */
export const CALENDAR_FEED_ON_FALLBACK = 'The calendar feed could not be turned on. Please try again.';
export const CALENDAR_FEED_OFF_FALLBACK = 'The calendar feed could not be turned off. Please try again.';

const CALENDAR_FEED_KEY = ['user', 'calendar-feed'] as const;

/** GET /user/calendar-feed (PRODUCT §10.18): whether the account's feed is on, and since when. */
export function useCalendarFeed() {
  return useQuery({ queryKey: CALENDAR_FEED_KEY, queryFn: fetchCalendarFeed, select: ({ feed }): CalendarFeedState => feed });
}

/**
 * POST /user/calendar-feed: a new address (the first, or one replacing the address before). The answer's address
 * is the only time the page sees it; the state becomes "on" at once, the server's message is toasted, a failure too.
 */
export function useTurnOnCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...CALENDAR_FEED_KEY, 'on'],
    mutationFn: turnOnCalendarFeed,
    onSuccess: ({ message, feed }) => {
      queryClient.setQueryData(CALENDAR_FEED_KEY, { message, feed: { on: true, since: feed.since } });
      notifySuccess(message);
    },
    onError: (error) => notifyError(describeError(error, CALENDAR_FEED_ON_FALLBACK)),
  });
}

/** DELETE /user/calendar-feed: the feed off, its address dead; the server's message is toasted, a failure too. */
export function useTurnOffCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...CALENDAR_FEED_KEY, 'off'],
    mutationFn: turnOffCalendarFeed,
    onSuccess: (answer) => {
      queryClient.setQueryData(CALENDAR_FEED_KEY, answer);
      notifySuccess(answer.message);
    },
    onError: (error) => notifyError(describeError(error, CALENDAR_FEED_OFF_FALLBACK)),
  });
}
