import { useEffect, useId, useRef, useState } from 'react';
import { preloadable } from '../components/preloadable';
import './search.css';
import { onFirstAct } from '../hooks/first-act';
import { closeSearch, focusSearch, isSearching, registerSearchField, SEARCH_MAX, useSearchOpen, useSearchQuery } from './search-param';
import type { SearchResultsProps } from './search-results';

// Search (docs/PRODUCT.md §10.22): the field and the phone's Search button are on the first load; the results
// (the call, the device's fallback, the highlighting) are a chunk of their own, fetched at the first key or
// pointer press on the page, or when a search first shows.
const { Component: LazyResults, preload: preloadResults } = preloadable(() => import('./search-results').then((module) => module.SearchResults));
if (typeof window !== 'undefined') onFirstAct(() => void preloadResults());

/** The matches of the address's search, in place of the task rows while a search is set. */
export function SearchResults(props: SearchResultsProps) {
  return <LazyResults {...props} />;
}

interface SearchFieldProps {
  /** A phone: the field shows once opened (the Search button, `/`) or while a search is set. */
  compact: boolean;
}

/**
 * The search field above the task list: what is typed is the address's `q` at once, so the results follow
 * as the person types, and Back, a reload or a link keep it. Escape empties it (on a phone, Escape in an
 * empty field closes it). `/` anywhere on the page puts the focus in it (§10.11.6).
 */
export function SearchField({ compact }: SearchFieldProps) {
  const [query, setQuery] = useSearchQuery();
  const open = useSearchOpen();
  const id = useId();
  // The field's own text, so typing never waits for the address (its updates are transitions). The address
  // wins when it changes on its own (Back, a result opened): a value that is not one this field wrote.
  const [text, setText] = useState(query);
  const written = useRef<string[]>([]);
  useEffect(() => {
    const own = written.current.indexOf(query);
    if (own === -1) setText(query);
    else written.current.splice(0, own + 1);
  }, [query]);
  if (compact && !open && !isSearching(query)) return null;
  const change = (value: string) => {
    setText(value);
    written.current.push(value);
    setQuery(value);
  };
  return (
    <div className="tasks-search" role="search">
      <label htmlFor={id} className="visually-hidden">
        Search tasks
      </label>
      <svg className="tasks-search__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12.7 12.7 17 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        ref={registerSearchField}
        id={id}
        className="tasks-search__input"
        type="search"
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        dir="auto"
        maxLength={SEARCH_MAX}
        placeholder="Search titles, notes and subtasks"
        aria-keyshortcuts="/"
        value={text}
        onChange={(event) => change(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          if (text !== '') change('');
          else if (compact) closeSearch();
        }}
        onFocus={() => void preloadResults()}
      />
      {!compact && (
        <kbd className="tasks-kbd tasks-search__key" aria-hidden="true">
          /
        </kbd>
      )}
    </div>
  );
}

/** A phone's Search button, beside Lists and Filters: it opens the field with the focus in it. */
export function SearchButton() {
  const open = useSearchOpen();
  const [query] = useSearchQuery();
  return (
    <button type="button" className="tasks-text-button tasks-search-toggle" aria-expanded={open || isSearching(query)} onClick={focusSearch}>
      Search
    </button>
  );
}
