import { labelKey, priorityName, type Priority } from '@tm/contracts';
import { FlagIcon } from '@tm/web-platform';
import { Link, useLocation } from 'react-router-dom';
import { NARROWING_PARAMS, narrowingIn, withParams } from '../hooks/use-task-filter';

/**
 * A task's priority on its row (docs/PRODUCT.md §10.20): a flag in the priority's colour and "P1", read
 * "Priority 1" (the short text is for the eye only). Priority 4, none, shows nothing.
 */
export function PriorityMark({ priority, id }: { priority: Priority; id?: string }) {
  if (priority === 4) return null;
  const name = priorityName(priority);
  return (
    <span id={id} className="tasks-priority" data-priority={priority} title={name}>
      <FlagIcon filled size={14} />
      <span aria-hidden="true">P{priority}</span>
      <span className="visually-hidden">{name}</span>
    </span>
  );
}

/**
 * A task's labels on its row (docs/PRODUCT.md §10.20), "@errand", each a link that narrows the tasks to it: the
 * same list, with the other filters of the address kept. The label the list is narrowed to is marked.
 */
export function LabelChips({ labels }: { labels: readonly string[] }) {
  const { search } = useLocation();
  const current = narrowingIn(search).label;
  const currentKey = current === undefined ? undefined : labelKey(current);
  return labels.map((name) => (
    <Link
      key={name}
      to={{ search: withParams(search, { [NARROWING_PARAMS.label]: name }) }}
      className="tasks-label"
      dir="auto"
      title={`Show the tasks labelled “${name}”`}
      aria-current={labelKey(name) === currentKey ? 'true' : undefined}
    >
      @{name}
    </Link>
  ));
}
