import type { Todo } from '@tm/api-client';
import { shownTaskOrder } from '@tm/contracts';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type Modifier,
  type Over,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useUpdateTodo } from '../api/update-todo';
import { useListActions } from '../lists/lists-api';
import { LIST_DROP_SLOT } from '../lists/lists-nav';
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

/** The ids of the lists' drop targets, apart from the rows' (task ids). */
const LIST_TARGET = 'list:';

/** A list of the sidebar a row is dragged onto (§10.24 "Onto another list"): its id and name. */
interface ListTarget {
  listId: string;
  name: string;
}
const listTargetOf = (over: Over | null): ListTarget | null => (over?.data.current?.['list'] as ListTarget | undefined) ?? null;

const isListTarget = (id: UniqueIdentifier) => String(id).startsWith(LIST_TARGET);

/** Where the mouse or finger is now, in the window's coordinates (`null` before it has moved). */
type PointerAt = { current: { x: number; y: number } | null };

const holds = (element: Element | null | undefined, { x, y }: { x: number; y: number }) => {
  const box = element?.getBoundingClientRect();
  return box !== undefined && x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
};

/**
 * The pointer over a list of the sidebar takes the task there; anywhere else, the row nearest the dragged one is
 * its new place. The keyboard has no pointer: it moves among the rows only (a list is chosen by Move to…, M).
 * The lists are found where they are now on screen: the sidebar stays in place as the page scrolls (sticky),
 * which dnd-kit's measures, made at the drag's start and moved with the page, do not follow.
 */
function listsThenRows(pointer: PointerAt): CollisionDetection {
  return (args) => {
    const at = pointer.current;
    const list = at && args.droppableContainers.find((target) => isListTarget(target.id) && holds(target.node.current, at));
    if (list) return [{ id: list.id, data: { droppableContainer: list, value: 0 } }];
    return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((target) => !isListTarget(target.id)) });
  };
}

/** Follows the mouse or finger while the rows are shown (dnd-kit's own coordinates are the page's, not the window's). */
function usePointerAt(): PointerAt {
  const pointer = useRef<{ x: number; y: number } | null>(null);
  useEffect(() => {
    const follow = (event: PointerEvent | TouchEvent) => {
      const point = 'touches' in event ? event.touches[0] : event;
      if (point) pointer.current = { x: point.clientX, y: point.clientY };
    };
    const options = { capture: true, passive: true };
    window.addEventListener('pointermove', follow, options);
    window.addEventListener('touchmove', follow, options);
    return () => {
      window.removeEventListener('pointermove', follow, options);
      window.removeEventListener('touchmove', follow, options);
    };
  }, []);
  return pointer;
}

interface ReorderRowsProps {
  /** The tasks the list shows, in its order. */
  todos: Todo[];
  /** The list's heading, which names the rows' list. */
  headingId: string;
}

export function ReorderRows({ todos: listed, headingId }: ReorderRowsProps) {
  // The move just dropped, shown in the very next frame: the cache's change (through the device's outbox)
  // reaches these rows a frame or two later, and once it has (a new `listed`), the rows are the list's again.
  const [moved, setMoved] = useState<{ id: string; order: string; over: Todo[] } | null>(null);
  const todos = useMemo(
    () => (moved?.over === listed ? shownTaskOrder(listed.map((todo) => (todo._id === moved.id ? { ...todo, order: moved.order } : todo))) : listed),
    [listed, moved],
  );
  const list = useRef<HTMLUListElement>(null);
  const ids = useMemo(() => todos.map((todo) => todo._id), [todos]);
  const [activeId, setActiveId] = useState<UniqueIdentifier | null>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const keepId = activeId ?? focusedId;
  const keepIndex = keepId === null ? -1 : ids.indexOf(String(keepId));
  const { virtualizer, items, totalSize, offset } = useRowWindow(list, ids, keepIndex);
  const { mutate: update } = useUpdateTodo();
  const { moveTask } = useListActions();
  const slots = useListDropSlots();
  const [overList, setOverList] = useState(false);
  // A task picked up with the keyboard moves among the rows only: the lists are no targets then (the arrow
  // keys' next place is the nearest target in their direction, which could be a list of the sidebar).
  const [keyboardDrag, setKeyboardDrag] = useState(false);
  const pointer = usePointerAt();
  const collisions = useMemo(() => listsThenRows(pointer), [pointer]);
  // The page does not scroll under a pointer on the sidebar: near the window's top edge, its first lists would
  // otherwise scroll the page while a task is held over them.
  const autoScroll = useMemo(
    () => ({ canScroll: () => !(pointer.current && holds(slots[0]?.closest('nav'), pointer.current)) }),
    [pointer, slots],
  );
  const [said, say] = useState('');
  // The handle to focus again once a step's move has re-rendered the list (the row may have been re-inserted).
  const refocus = useRef<string | null>(null);

  const titleOf = (id: UniqueIdentifier) => todos.find((todo) => todo._id === id)?.title ?? '';
  const indexOf = (id: UniqueIdentifier) => ids.indexOf(String(id));
  const placementOf = (active: UniqueIdentifier, over: UniqueIdentifier | undefined): Placement | null =>
    over === undefined ? null : placeTask(todos, String(active), indexOf(over));

  const save = useCallback(
    (id: string, placement: Placement) => {
      setMoved({ id, order: placement.order, over: listed });
      update({ todoId: id, patch: { order: placement.order } });
      virtualizer.scrollToIndex(placement.position, { align: 'auto' });
    },
    [update, virtualizer, listed],
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
    onDragOver: ({ active, over }) => {
      const list = listTargetOf(over);
      if (list) return REORDER_WORDS.overList(titleOf(active.id), list.name);
      return over ? REORDER_WORDS.over(titleOf(active.id), indexOf(over.id), size) : undefined;
    },
    onDragEnd: ({ active, over }) => {
      const list = listTargetOf(over);
      if (list) return REORDER_WORDS.movedTo(titleOf(active.id), list.name);
      const placement = placementOf(active.id, over?.id);
      return placement
        ? REORDER_WORDS.dropped(titleOf(active.id), placement.position, size)
        : REORDER_WORDS.unmoved(titleOf(active.id), indexOf(active.id), size);
    },
    onDragCancel: ({ active }) => REORDER_WORDS.cancelled(titleOf(active.id), indexOf(active.id), size),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveId(null);
    setOverList(false);
    setKeyboardDrag(false);
    const list = listTargetOf(over);
    const todo = todos.find((entry) => entry._id === active.id);
    if (list && todo) {
      // The same write as Move to… (§10.19): the task's list, through the device's outbox, its message and all.
      void moveTask(todo, list.listId);
      return;
    }
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
      collisionDetection={collisions}
      autoScroll={autoScroll}
      modifiers={[alongTheList]}
      accessibility={{ announcements, screenReaderInstructions: { draggable: REORDER_WORDS.instructions } }}
      onDragStart={({ active, activatorEvent }) => {
        setActiveId(active.id);
        setKeyboardDrag(activatorEvent.type.startsWith('key'));
      }}
      onDragOver={({ over }) => setOverList(listTargetOf(over) !== null)}
      onDragCancel={() => {
        setActiveId(null);
        setOverList(false);
        setKeyboardDrag(false);
      }}
      onDragEnd={onDragEnd}
    >
      {!keyboardDrag &&
        slots.map((slot) => <ListDropTarget key={slot.getAttribute(LIST_DROP_SLOT)} slot={slot} />)}
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul
          ref={list}
          className={`tasks-list__items reorder-rows${overList ? ' reorder-rows--to-list' : ''}`}
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

/** The drop slots of the sidebar's lists (none on a phone, where the lists are in a drawer), kept as they change. */
function useListDropSlots(): HTMLElement[] {
  const [slots, setSlots] = useState<HTMLElement[]>([]);
  useLayoutEffect(() => {
    const read = () => {
      const now = Array.from(document.querySelectorAll<HTMLElement>(`[${LIST_DROP_SLOT}]`));
      setSlots((before) => (before.length === now.length && before.every((slot, index) => slot === now[index]) ? before : now));
    };
    read();
    const watch = new MutationObserver(read);
    watch.observe(document.body, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, []);
  return slots;
}

/** A list of the sidebar as a place to drop a task: drawn in the list's slot, marked while a task is over it. */
function ListDropTarget({ slot }: { slot: HTMLElement }) {
  const listId = slot.getAttribute(LIST_DROP_SLOT) ?? '';
  const list: ListTarget = { listId, name: slot.dataset['dropName'] ?? '' };
  const { setNodeRef, isOver } = useDroppable({ id: `${LIST_TARGET}${listId}`, data: { list } });
  return createPortal(<span ref={setNodeRef} className={`reorder-list-target${isOver ? ' reorder-list-target--over' : ''}`} />, slot);
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
