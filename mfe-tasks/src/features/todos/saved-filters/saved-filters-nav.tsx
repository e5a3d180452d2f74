import { filterAddressOf } from '@tm/contracts';
import { TrashIcon } from '@tm/web-platform';
import { useId } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useDeleteSavedFilter, useSavedFilters } from './saved-filters-api';

/**
 * The person's saved filters (docs/PRODUCT.md §10.20 "Saved filters") under their lists: each a link to the
 * address it keeps, the current one marked (aria-current="page"), with a button that deletes it (Undo in its
 * toast). Nothing while there are none: "Save filter…" among the filters makes the first.
 */
export function SavedFiltersNav({ onChosen }: { onChosen?: () => void }) {
  const filters = useSavedFilters();
  const remove = useDeleteSavedFilter();
  const { pathname, search } = useLocation();
  const titleId = useId();
  if (filters.length === 0) return null;
  const current = filterAddressOf(pathname, search);
  return (
    <nav className="lists-nav saved-filters" aria-labelledby={titleId}>
      <h2 id={titleId} className="saved-filters__title">
        Saved filters
      </h2>
      {filters.map((filter) => (
        <div key={filter._id} className="lists-nav__row">
          <Link className="lists-nav__link" to={filter.address} aria-current={filter.address === current ? 'page' : undefined} onClick={onChosen}>
            <span className="saved-filters__mark" aria-hidden="true">
              ⌕
            </span>
            <span className="lists-nav__name">{filter.name}</span>
          </Link>
          <button type="button" className="lists-nav__menu-button" aria-label={`Delete saved filter “${filter.name}”`} onClick={() => remove(filter)}>
            <TrashIcon />
          </button>
        </div>
      ))}
    </nav>
  );
}
