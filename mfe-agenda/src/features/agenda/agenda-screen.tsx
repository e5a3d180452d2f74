import type { Todo } from '@tm/api-client';
import { AGENDA_DAYS, agendaOf, archivedListIds, outsideArchivedLists, type ReminderItem } from '@tm/contracts';
import { dueText, personNow, syncedTodosQuery, useLiveTodos, usePersonClock, useTaskSync, useUndoKey } from '@tm/web-platform';
import { missedReminderOf, useMissedReminders } from '@tm/web-platform/reminders';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { AgendaTask, loadAfterChange, type FocusRequest } from './agenda-task';
import './agenda.css';

const pad = (value: number) => String(value).padStart(2, '0');

/** The person's today (`YYYY-MM-DD`) on their own clock (docs/PRODUCT.md §10.14). */
function todayOf(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** "Sunday 6 December", in the person's locale. */
function longDay(day: string): string {
  return new Date(`${day}T12:00:00`).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
}

interface SectionProps {
  id: string;
  heading: string;
  level: 2 | 3;
  todos: Todo[];
  today: string;
  showDay: boolean;
  empty?: string;
  nextOf: Map<string, string | undefined>;
  focus: FocusRequest | null;
  onFocus: (request: FocusRequest | null) => void;
  /** The missed reminders by task (docs/PRODUCT.md §10.17), read once for the screen. */
  missed: ReadonlyMap<string, ReminderItem>;
}

function Section({ id, heading, level, todos, today, showDay, empty, nextOf, focus, onFocus, missed }: SectionProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="agenda-section" aria-labelledby={id}>
      <Heading id={id} className={`agenda-section__heading agenda-section__heading--${level}`}>
        {heading} <span className="agenda-section__count">{todos.length === 1 ? '1 task' : `${todos.length} tasks`}</span>
      </Heading>
      {todos.length === 0 ? (
        <p className="agenda-section__empty">{empty}</p>
      ) : (
        <ul className="agenda-section__list" aria-labelledby={id}>
          {todos.map((todo) => (
            <AgendaTask
              key={todo._id}
              todo={todo}
              today={today}
              showDay={showDay}
              nextId={nextOf.get(todo._id)}
              focus={focus}
              onFocus={onFocus}
              missed={missedReminderOf(missed, todo)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Today and Upcoming (docs/PRODUCT.md §10.15): open tasks due before today, those due today, then the next
 * six days that hold any, each day under its own heading. It reads the list the task screen reads (the
 * device's copy with its pending changes, kept live) and groups it by the same rule as `GET /todo/agenda`
 * (`agendaOf` of @tm/contracts), so it works offline and agrees with the service. Its <h1> carries
 * `headingId`, which names the page's region.
 */
export function AgendaScreen({ headingId }: { headingId: string }) {
  const queryClient = useQueryClient();
  usePersonClock();
  useTaskSync();
  useLiveTodos();
  // Undo of a tick, as in the task list (docs/PRODUCT.md §10.11.4): U, and the offers end with the screen. Its
  // code comes once the screen has painted, so its toast shows as soon as a tick is answered, offline too.
  useUndoKey();
  useEffect(() => void loadAfterChange().catch(() => undefined), []);
  const missed = useMissedReminders();
  const list = useQuery(syncedTodosQuery(queryClient));
  const today = todayOf(personNow());
  // The tasks an archived list keeps out of the way are not on anybody's days (§10.19 "Archive"), as in the service's agenda.
  const agenda = useMemo(() => (list.data ? agendaOf(outsideArchivedLists(list.data.todos, archivedListIds(list.data.lists)), today, AGENDA_DAYS.default) : null), [list.data, today]);
  const [focus, setFocus] = useState<FocusRequest | null>(null);

  // Completing a task hands the focus to the next one on the screen.
  const nextOf = useMemo(() => {
    const order = agenda ? [...agenda.overdue, ...agenda.days.flatMap((day) => day.todos)] : [];
    return new Map(order.map((todo, index) => [todo._id, order[index + 1]?._id]));
  }, [agenda]);

  const todays = agenda?.days[0]?.date === today ? agenda.days[0] : undefined;
  const upcoming = agenda?.days.filter((day) => day.date !== today) ?? [];
  return (
    <div className="agenda">
      <h1 id={headingId} className="agenda__title">
        Today
      </h1>
      <p className="agenda__lead">{longDay(today)}: what is due, and the days ahead.</p>
      {list.isPending && (
        <p role="status" className="agenda__status">
          Loading your tasks…
        </p>
      )}
      {list.isError && !list.data && (
        <div role="alert" className="agenda__status">
          <p>We could not load your tasks.</p>
          <button type="button" className="agenda-button" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      )}
      {agenda && (
        <>
          {agenda.overdue.length > 0 && (
            <Section id={`${headingId}-overdue`} heading="Overdue" level={2} todos={agenda.overdue} today={today} showDay nextOf={nextOf} focus={focus} onFocus={setFocus} missed={missed} />
          )}
          <Section
            id={`${headingId}-today`}
            heading="Today"
            level={2}
            todos={todays?.todos ?? []}
            today={today}
            showDay={false}
            empty="Nothing due today."
            nextOf={nextOf}
            focus={focus}
            onFocus={setFocus}
            missed={missed}
          />
          <h2 className="agenda__upcoming">Upcoming</h2>
          {upcoming.length === 0 ? (
            <p className="agenda-section__empty">
              Nothing due in the next six days. Give a task a date from <Link to="/">your tasks</Link>.
            </p>
          ) : (
            upcoming.map((day) => (
              <Section
                key={day.date}
                id={`${headingId}-${day.date}`}
                heading={dueText(day.date)}
                level={3}
                todos={day.todos}
                today={today}
                showDay={false}
                nextOf={nextOf}
                focus={focus}
                onFocus={setFocus}
                missed={missed}
              />
            ))
          )}
        </>
      )}
    </div>
  );
}
