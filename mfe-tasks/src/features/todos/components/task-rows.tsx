import type { Todo } from '@tm/api-client';
import { AnimatePresence } from 'framer-motion';
import { useCallback, useRef, type RefObject } from 'react';
import { useEntrances } from '../hooks/use-entrances';
import type { RowActions } from '../hooks/use-row-actions';
import type { TaskList } from '@tm/contracts';
import { useRowFocus, useRowNavigation, type RowsHandle } from '../hooks/use-row-focus';
import { useStillListed } from '../hooks/use-row-motion';
import { useRowWindow } from '../hooks/use-row-window';
import { useListRenderTiming } from '../hooks/use-timing-marks';
import { useQueryClient } from '@tanstack/react-query';
import { missedReminderOf, useMissedReminders } from '@tm/web-platform/reminders';
import { TaskItem, type RowHandlers } from './task-item';
import { dismissRefusal, useRefusalsByTask } from './sync-status';
import type { DeletedElsewhere } from './task-title-editor';

interface TaskRowsProps {
  /** Every task of the list, the one being edited after it went away included (for the entrances). */
  todos: Todo[];
  /** The tasks of the filter, in order. */
  visible: Todo[];
  keys: readonly string[];
  /** The filters shown (status, priority, label, due): another is another list, whose rows come in afresh. */
  view: string;
  compact: boolean;
  headingId: string;
  inputRef: RefObject<HTMLInputElement | null>;
  /** What the rows do to their tasks. */
  actions: RowActions;
  /** A row's title editor opened or closed (see useOrphanedEdits). */
  onEditing: RowHandlers['onEditing'];
  /** A row's History action (the list shows the dialog). */
  onShowHistory: RowHandlers['onShowHistory'];
  /** A row's Due date action (the list shows the picker). */
  onPickDue: RowHandlers['onPickDue'];
  /** A row's "Move to…" action (the list shows the choice of lists). */
  onMoveTo: RowHandlers['onMoveTo'];
  /** A row's Priority and Labels… actions (the list shows their dialogs, docs/PRODUCT.md §10.20). */
  onPickPriority: RowHandlers['onPickPriority'];
  onEditLabels: RowHandlers['onEditLabels'];
  /** A row's Details… action, a tap on its title on a phone (the list shows the details, docs/PRODUCT.md §10.21). */
  onOpenDetails: RowHandlers['onOpenDetails'];
  /** The list a row names (All tasks shows each task's list but the Inbox, docs/PRODUCT.md §10.19). */
  listOf?: (todo: Todo) => TaskList | undefined;
  goneId: string | undefined;
  deletedElsewhere: (DeletedElsewhere & { draft?: string }) | undefined;
  handle: RefObject<RowsHandle | null>;
}

/**
 * The rows themselves, windowed over the page's scroll: only this part renders again as the page scrolls
 * (docs/PERFORMANCE.md "Smooth on a phone"), not the filters, the bulk actions or the list's actions above
 * it. Only the rows in and near the window are in the DOM (docs/PRODUCT.md §10.5.1), each placed at its offset
 * in a list as tall as all of them; the list stays a list for screen readers (each row says its place and the
 * list's size, §10.5.3).
 */
export function TaskRows({
  todos,
  visible,
  keys,
  view,
  compact,
  headingId,
  inputRef,
  actions,
  onEditing,
  onShowHistory,
  onPickDue,
  onMoveTo,
  onPickPriority,
  onEditLabels,
  onOpenDetails,
  listOf,
  goneId,
  deletedElsewhere,
  handle,
}: TaskRowsProps) {
  const list = useRef<HTMLUListElement>(null);
  const { focusedIndex, focusRow } = useRowFocus(list, visible, inputRef);
  const { virtualizer, items, totalSize, offset } = useRowWindow(list, keys, focusedIndex);
  const enterDelayOf = useEntrances(todos, view, () => items.map((item) => keys[item.index]).filter((id) => id !== undefined));
  useListRenderTiming();
  useRowNavigation(handle, list, visible, focusRow, virtualizer);
  // Exiting rows ask, as they go, whether their task is still in the list (see useRowMotion's exit).
  const stillListed = useStillListed(keys);
  // A change the server refused shows on its task, with the reason (docs/PRODUCT.md §10.4).
  const refusals = useRefusalsByTask();
  const queryClient = useQueryClient();
  const onDismissRefusal = useCallback((commandId: string) => dismissRefusal(queryClient, commandId), [queryClient]);
  // A reminder that reached no browser shows on its task (docs/PRODUCT.md §10.17): read once here, a lookup per row.
  const missed = useMissedReminders();

  return (
    <ul ref={list} className="tasks-list__items" aria-labelledby={headingId} style={{ height: totalSize }}>
      {/* A new filter is a new list: its rows come in afresh, without the exit animation of the others. */}
      <AnimatePresence key={view} custom={stillListed}>
        {items.map((item) => {
          const todo = visible[item.index];
          if (!todo) return null;
          return (
            <TaskItem
              key={keys[item.index] ?? todo._id}
              todo={todo}
              index={item.index}
              setSize={visible.length}
              top={item.start - offset}
              enterDelay={enterDelayOf(todo._id)}
              compact={compact}
              measureRef={virtualizer.measureElement}
              {...actions}
              onEditing={onEditing}
              onShowHistory={onShowHistory}
              onPickDue={onPickDue}
              onMoveTo={onMoveTo}
              onPickPriority={onPickPriority}
              onEditLabels={onEditLabels}
              onOpenDetails={onOpenDetails}
              list={listOf?.(todo)}
              deletedElsewhere={todo._id === goneId ? deletedElsewhere : undefined}
              refusal={refusals.get(todo._id)}
              onDismissRefusal={onDismissRefusal}
              missedReminder={missedReminderOf(missed, todo)}
            />
          );
        })}
      </AnimatePresence>
    </ul>
  );
}
