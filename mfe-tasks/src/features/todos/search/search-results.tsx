import { isOffline, type Todo } from '@tm/api-client';
import { matchesSearch, SEARCH_RESULTS_MAX, searchExcerpt, searchHits, searchTerms, type SearchHit, type TaskList } from '@tm/contracts';
import { personNow } from '@tm/web-platform';
import axios from 'axios';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { withParams, type Narrowing, type TaskFilter } from '../hooks/use-task-filter';
import { ListDot } from '../lists/list-dot';
import { fetchSearch, searchParams, wallClock, type SearchRequest } from './search-api';
import { SEARCH_PARAM } from './search-param';
import './search-results.css';

/** How long the field rests before its words are sent: typing on sends one request, not one per letter. */
export const SEARCH_DEBOUNCE_MS = 150;

export const OFFLINE_SEARCH_MESSAGE = "Searching this device's tasks — you're offline.";
export const FAILED_SEARCH_MESSAGE = "Search isn't answering right now, so these are the matches among this device's tasks.";

export interface SearchResultsProps {
  /** The address's `q`. */
  query: string;
  /** The device's tasks of the list in view: searched when the service cannot be (offline, failing). */
  todos: Todo[];
  /** Whether a task passes the status and other filters, as the list shows it (the device's search applies it too). */
  shows: (todo: Todo) => boolean;
  filter: TaskFilter;
  narrowing: Narrowing;
  /** The list in view (a list's id or INBOX_ID); undefined: All tasks. */
  listId: string | undefined;
  lists: readonly TaskList[];
}

/** What a search answered: the service's matches, or the device's with why. */
interface Found {
  key: string;
  /** The words it answered (the count says them, not the words typed since). */
  words: string;
  todos: Todo[];
  more: number;
  from: 'service' | 'offline' | 'failed';
}

/** `text` with each hit in a <mark>. */
function Highlighted({ text, hits }: { text: string; hits: readonly SearchHit[] }) {
  return (
    <>
      {hits.map(({ start, end }, index) => (
        <Fragment key={start}>
          {text.slice(index === 0 ? 0 : (hits[index - 1]?.end ?? 0), start)}
          <mark className="tasks-search__mark">{text.slice(start, end)}</mark>
        </Fragment>
      ))}
      {text.slice(hits.at(-1)?.end ?? 0)}
    </>
  );
}

const plural = (count: number) => `${count} ${count === 1 ? 'task' : 'tasks'}`;

/** What the live region says of an answer. */
function summaryOf(found: Found, words: string): string {
  const shown = found.todos.length;
  if (shown === 0) return `No tasks match “${words}”.`;
  if (found.more > 0) return `${plural(shown + found.more)} match “${words}”; the first ${shown} are shown. Add a word to narrow them.`;
  return `${plural(shown)} ${shown === 1 ? 'matches' : 'match'} “${words}”.`;
}

/**
 * The matches of a search (docs/PRODUCT.md §10.22), in place of the task rows: best match first, each with its
 * title and the words found in it highlighted, the line of its note or the subtask that matched, and its list
 * (in All tasks). The service is asked SEARCH_DEBOUNCE_MS after the last letter, one request at a time (a new
 * one aborts the one on its way); offline, or when it fails, the tasks on this device are searched by the same
 * rule and that is said. A live region says how many match. A result opens its task in the list.
 */
export function SearchResults({ query, todos, shows, filter, narrowing, listId, lists }: SearchResultsProps) {
  const terms = useMemo(() => searchTerms(query), [query]);
  const words = query.trim();
  const request = useMemo<Omit<SearchRequest, 'now'>>(() => ({ query, filter, narrowing, listId }), [query, filter, narrowing, listId]);
  const key = JSON.stringify(searchParams({ ...request, now: '' }));
  const [found, setFound] = useState<Found | null>(null);

  useEffect(() => {
    if (terms.length === 0) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      if (!navigator.onLine) {
        setFound({ key, words, todos: [], more: 0, from: 'offline' });
        return;
      }
      fetchSearch({ ...request, now: wallClock(personNow()) }, controller.signal).then(
        ({ todos: matches, more }) => setFound({ key, words, todos: matches, more, from: 'service' }),
        (error: unknown) => {
          if (axios.isCancel(error) || controller.signal.aborted) return;
          setFound({ key, words, todos: [], more: 0, from: isOffline(error) ? 'offline' : 'failed' });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, request, terms.length, words]);

  // The device's matches, by the contracts' rule and the list's own filters, kept current as the tasks change.
  const onDevice = useMemo(() => todos.filter((todo) => shows(todo) && matchesSearch(todo, terms)), [todos, shows, terms]);
  const shown: Found | null = found === null ? null : found.from === 'service' ? found : { ...found, words, todos: onDevice.slice(0, SEARCH_RESULTS_MAX), more: Math.max(0, onDevice.length - SEARCH_RESULTS_MAX) };
  const stale = shown !== null && shown.key !== key;
  const listsById = useMemo(() => new Map(lists.map((list) => [list._id, list])), [lists]);
  const { pathname, search } = useLocation();
  // A result opens its task in the list: the address without the search (its filters kept, so the task is in view).
  const listAddress = { pathname, search: withParams(search, { [SEARCH_PARAM]: undefined }) };

  if (terms.length === 0) {
    return (
      <p className="tasks-list__empty" role="status">
        Type a word to search for: letters or digits.
      </p>
    );
  }
  return (
    <div className="tasks-search__results" aria-busy={shown === null || stale || undefined}>
      {shown !== null && shown.from !== 'service' && (
        <p className="tasks-search__note" role="alert">
          {shown.from === 'offline' ? OFFLINE_SEARCH_MESSAGE : FAILED_SEARCH_MESSAGE}
        </p>
      )}
      <p className={shown !== null && shown.todos.length === 0 ? 'tasks-list__empty' : 'tasks-search__summary'} role="status">
        {shown === null ? 'Searching…' : summaryOf(shown, shown.words)}
      </p>
      {shown !== null && shown.todos.length > 0 && (
        <ul className="tasks-search__list" aria-label={`Tasks matching “${words}”`}>
          {shown.todos.map((todo) => {
            const list = listId === undefined && todo.listId !== undefined ? listsById.get(todo.listId) : undefined;
            const excerpt = searchExcerpt(todo, terms);
            return (
              <li key={todo._id} className="tasks-search__item">
                <Link className="tasks-search__open" to={listAddress} state={{ focusTask: todo._id }}>
                  <span className={`tasks-search__title${todo.completed ? ' tasks-search__title--done' : ''}`}>
                    <Highlighted text={todo.title} hits={searchHits(todo.title, terms)} />
                  </span>
                  {todo.completed && <span className="tasks-search__done"> (completed)</span>}
                  {excerpt && (
                    <span className="tasks-search__excerpt">
                      <span className="tasks-search__source">{excerpt.source === 'note' ? 'Note: ' : 'Subtask: '}</span>
                      <Highlighted text={excerpt.text} hits={excerpt.hits} />
                    </span>
                  )}
                  {list && (
                    <span className="tasks-search__in">
                      <ListDot colour={list.colour} />
                      {list.name}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
