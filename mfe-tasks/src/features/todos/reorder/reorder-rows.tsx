import type { Todo } from '@tm/api-client';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type Modifier,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useUpdateTodo } from '../api/update-todo';
import { useRowWindow } from '../hooks/use-row-window';
import { placeTask, REORDER_WORDS, stepTask, type Placement } from './reorder-place';
import './reorder.css';

// Your own order (docs/PRODUCT.md §10.24): the rows of a list while Reorder is on, each with a handle that
// drags it (mouse, touch) or picks it up (Space or Enter, then the arrow keys: dnd-kit's sensors and its
// live region), and Alt+↑/↓ to move it one place at once. A drop writes the moved task's order key only, in one
// request through the device's outbox (useUpdateTodo), and the row shows in its place at once (the cache's
// optimistic change, re-sorted by the list's order). Loaded when Reorder is first turned on (not in the first load).

/** Only up and down: a row never leaves its column. */
const alongTheList: Modifier = ({ transform }) => ({ ...transform, x: 0 });

interface ReorderRowsProps {
  /** The tasks the list shows, in its order. */
  todos: Todo[];
  /** The list's heading, which names the rows' list. */
  headingId: string;
}

export function ReorderRows({ todos, headingId }: ReorderRowsProps) {
  const list = useRef<HTMLUListElement>(null);
  const ids = useMemo(() => todos.map((todo) => todo._id), [todos]);
  const [activeId, setActiveId] = useState<UniqueIdentifier | null>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const keepId = activeId ?? focusedId;
  const keepIndex = keepId === null ? -1 : ids.indexOf(String(keepId));
  const { virtualizer, items, totalSize, offset } = useRowWindow(list, ids, keepIndex);
  const { mutate: update } = useUpdateTodo();
  const [said, say] = useState('');
  // The handle to focus again once a step's move has re-rendered the list (the row may have been re-inserted).
  const refocus = useRef<string | null>(null);

  const titleOf = (id: UniqueIdentifier) => todos.find((todo) => todo._id === id)?.title ?? '';
  const indexOf = (id: UniqueIdentifier) => ids.indexOf(String(id));
  const placementOf = (active: UniqueIdentifier, over: UniqueIdentifier | undefined): Placement | null =>
    over === undefined ? null : placeTask(todos, String(active), indexOf(over));

  const save = useCallback(
    (id: string, placement: Placement) => {
      update({ todoId: id, patch: { order: placement.order } });
      virtualizer.scrollToIndex(placement.position, { align: 'auto' });
    },
    [update, virtualizer],
  );

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    // The handle alone takes touches (`touch-action: none`): a drag starts when the finger moves on it, and the
    // page scrolls as usual from anywhere else.
    useSensor(TouchSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const size = todos.length;
  const announcements: Announcements = {
    onDragStart: ({ active }) => REORDER_WORDS.pickedUp(titleOf(active.id), indexOf(active.id), size),
    onDragOver: ({ active, over }) => (over ? REORDER_WORDS.over(titleOf(active.id), indexOf(over.id), size) : undefined),
    onDragEnd: ({ active, over }) => {
      const placement = placementOf(active.id, over?.id);
      return placement
        ? REORDER_WORDS.dropped(titleOf(active.id), placement.position, size)
        : REORDER_WORDS.unmoved(titleOf(active.id), indexOf(active.id), size);
    },
    onDragCancel: ({ active }) => REORDER_WORDS.cancelled(titleOf(active.id), indexOf(active.id), size),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveId(null);
    const placement = placementOf(active.id, over?.id);
    if (placement) save(String(active.id), placement);
  };

  const onStep = useCallback(
    (todo: Todo, step: -1 | 1) => {
      const placement = stepTask(todos, todo._id, step);
      if (!placement) {
        say(REORDER_WORDS.end(todo.title, step));
        return;
      }
      refocus.current = todo._id;
      save(todo._id, placement);
      say(REORDER_WORDS.dropped(todo.title, placement.position, todos.length));
    },
    [save, todos],
  );

  // After a step the moved row's handle keeps the focus, wherever the row went.
  useLayoutEffect(() => {
    const id = refocus.current;
    if (id === null) return;
    const handle = list.current?.querySelector<HTMLButtonElement>(`[data-todo-id="${id}"] .reorder-row__handle`);
    if (!handle) return;
    refocus.current = null;
    if (document.activeElement !== handle) handle.focus();
  });

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[alongTheList]}
      accessibility={{ announcements, screenReaderInstructions: { draggable: REORDER_WORDS.instructions } }}
      onDragStart={({ active }) => setActiveId(active.id)}
      onDragCancel={() => setActiveId(null)}
      onDragEnd={onDragEnd}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul
          ref={list}
          className="tasks-list__items reorder-rows"
          aria-labelledby={headingId}
          style={{ height: totalSize }}
          onFocus={(event) => setFocusedId(event.target.closest('[data-todo-id]')?.getAttribute('data-todo-id') ?? null)}
        >
          {items.map((item) => {
            const todo = todos[item.index];
            if (!todo) return null;
            return (
              <ReorderRow
                key={todo._id}
                todo={todo}
                index={item.index}
                size={size}
                top={item.start - offset}
                measureRef={virtualizer.measureElement}
                onStep={onStep}
              />
            );
          })}
        </ul>
      </SortableContext>
      <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {said}
      </p>
    </DndContext>
  );
}

interface ReorderRowProps {
  todo: Todo;
  index: number;
  size: number;
  top: number;
  measureRef: (element: HTMLLIElement | null) => void;
  onStep: (todo: Todo, step: -1 | 1) => void;
}

/** One row: its handle, its title, and whether it is pinned or completed (they move among their own kind). */
const ReorderRow = memo(function ReorderRow({ todo, index, size, top, measureRef, onStep }: ReorderRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: todo._id });
  const setRow = useCallback(
    (element: HTMLLIElement | null) => {
      setNodeRef(element);
      measureRef(element);
    },
    [setNodeRef, measureRef],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      onStep(todo, event.key === 'ArrowUp' ? -1 : 1);
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  const classes = ['tasks-item', 'reorder-row', todo.isPinned && 'tasks-item--pinned', todo.completed && 'tasks-item--completed', isDragging && 'reorder-row--dragging'];
  return (
    <li
      ref={setRow}
      data-todo-id={todo._id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={size}
      className={classes.filter(Boolean).join(' ')}
      style={{ top, transform: CSS.Translate.toString(transform), transition }}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        className="reorder-row__handle"
        {...attributes}
        {...listeners}
        onKeyDown={onKeyDown}
        aria-label={`Reorder “${todo.title}”`}
      >
        <GripIcon />
      </button>
      <span dir="auto" className={`tasks-item__title reorder-row__title${todo.completed ? ' tasks-item__title--completed' : ''}`}>
        {todo.title}
      </span>
      {(todo.isPinned || todo.completed) && (
        <span className="reorder-row__kind">{[todo.isPinned && 'Pinned', todo.completed && 'Completed'].filter(Boolean).join(', ')}</span>
      )}
    </li>
  );
});

/** Six dots: the usual mark of a handle that drags. */
function GripIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      {[6, 10, 14].flatMap((y) => [7, 13].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.5" fill="currentColor" />))}
    </svg>
  );
}
