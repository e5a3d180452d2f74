import { todosQuery } from '@tm/api-client';
import { useLiveTodos } from '@tm/web-platform';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CompletionChart } from './completion-chart';
import { insightsByList, insightsOf, type Insights, type ListFigures } from './insights';
import './insights.css';

function Figure({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <div className="insights-figure">
      <dt>{label}</dt>
      <dd>
        <span className="insights-figure__value">{value.toLocaleString('en')}</span>
        {hint && <span className="insights-figure__hint">{hint}</span>}
      </dd>
    </div>
  );
}

function Figures({ insights }: { insights: Insights }) {
  return (
    <dl className="insights-figures">
      <Figure label="Current streak" value={insights.streak} hint={insights.streak === 1 ? 'day' : 'days'} />
      <Figure label="Completed this week" value={insights.completedThisWeek} />
      <Figure label="Open" value={insights.open} />
      <Figure label="Completed" value={insights.completed} />
      <Figure label="Pinned" value={insights.pinned} />
    </dl>
  );
}

/** The figures of each list (docs/PRODUCT.md §10.12, §10.19), as a table: one row per list, the Inbox first. */
function ByList({ rows }: { rows: ListFigures[] }) {
  return (
    <section className="insights-lists" aria-labelledby="insights-lists-heading">
      <h2 id="insights-lists-heading" className="insights-lists__title">
        By list
      </h2>
      <table className="insights-lists__table">
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Open</th>
            <th scope="col">Completed this week</th>
            <th scope="col">Completed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                {/* The list's colour, by name (design tokens --list-*, readable in both themes); the Inbox has none. */}
                <span className="insights-lists__dot" style={row.colour ? { background: `var(--list-${row.colour})`, borderColor: 'transparent' } : undefined} aria-hidden="true" />
                {row.name}
              </th>
              <td>{row.open.toLocaleString('en')}</td>
              <td>{row.completedThisWeek.toLocaleString('en')}</td>
              <td>{row.completed.toLocaleString('en')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The Insights screen (docs/PRODUCT.md §10.12): tasks completed per day over the last 4 weeks, the
 * current streak, the totals, and the figures of each list (§10.19) once the person has lists. It reads the task list from the shell's QueryClient (`todosQuery()`: the
 * same cache as the task list, so coming from there costs no request) and keeps it live with the change
 * stream, so a task ticked on another device moves the chart within a second. Its <h1> carries `headingId`,
 * which names the page's region.
 */
export function InsightsScreen({ headingId }: { headingId: string }) {
  const list = useQuery(todosQuery());
  useLiveTodos();
  const insights = useMemo(() => (list.data ? insightsOf(list.data.todos) : null), [list.data]);
  // A person with no list of their own has only the Inbox: the table would repeat the figures above.
  const byList = useMemo(() => (list.data && (list.data.lists ?? []).length > 0 ? insightsByList(list.data.todos, list.data.lists) : null), [list.data]);
  return (
    <div className="insights">
      <h1 id={headingId} className="insights__title">
        Insights
      </h1>
      <p className="insights__lead">How your tasks are going: what you completed each day over the last four weeks.</p>
      {list.isPending && (
        <p role="status" className="insights__status">
          Loading your insights…
        </p>
      )}
      {list.isError && !list.data && (
        <div role="alert" className="insights__status">
          <p>We could not load your tasks.</p>
          <button type="button" className="platform-button" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      )}
      {insights && (
        <>
          <Figures insights={insights} />
          <CompletionChart days={insights.days} />
          {byList && <ByList rows={byList} />}
        </>
      )}
    </div>
  );
}
