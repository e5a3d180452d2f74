import { DUE_YEARS } from '@tm/contracts';
import { calendarFeedText, type CalendarFeedOptions } from './calendar-feed.domain.js';
import type { TodosRepository } from './todos.repository.js';
import { openDueOnTheirDays } from './todos.service.js';

/** The day after the last day a due date may have: every open dated task is due before it. */
const AFTER_ANY_DUE_DATE = `${DUE_YEARS.max + 1}-01-01`;

/**
 * The calendar feed of one user (docs/PRODUCT.md §10.18): the user's open dated tasks on their days, read as
 * Today and Upcoming read them (openDueOnTheirDays: outside an archived list, through the index of open dated
 * tasks), written as iCalendar by calendar-feed.domain.ts. No Koa, no driver here.
 */
export class CalendarFeedService {
  constructor(private readonly repository: TodosRepository) {}

  async calendar(userId: string, options: CalendarFeedOptions = {}): Promise<string> {
    return calendarFeedText(await openDueOnTheirDays(this.repository, userId, AFTER_ANY_DUE_DATE), options);
  }
}
