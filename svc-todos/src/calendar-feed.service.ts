import { archivedListIds, DUE_YEARS, outsideArchivedLists } from '@tm/contracts';
import { calendarFeedText, type CalendarFeedOptions } from './calendar-feed.domain.js';
import type { TodosRepository } from './todos.repository.js';

/** The day after the last day a due date may have: every open dated task is due before it. */
const AFTER_ANY_DUE_DATE = `${DUE_YEARS.max + 1}-01-01`;

/**
 * The calendar feed of one user (docs/PRODUCT.md §10.18): the store reads the user's open dated tasks (the same
 * read as Today and Upcoming, served by the index of open dated tasks) and lists, and calendar-feed.domain.ts
 * writes those outside an archived list (§10.19 "Archive") as iCalendar. No Koa, no driver here.
 */
export class CalendarFeedService {
  constructor(private readonly repository: TodosRepository) {}

  async calendar(userId: string, options: CalendarFeedOptions = {}): Promise<string> {
    const [open, lists] = await Promise.all([this.repository.openDueBefore(userId, AFTER_ANY_DUE_DATE), this.repository.listsOf(userId)]);
    return calendarFeedText(outsideArchivedLists(open, archivedListIds(lists)), options);
  }
}
