import { CalendarIcon, EditIcon, FlagIcon, HistoryIcon, MoreIcon, MoveIcon, NoteIcon, PinIcon, TagIcon, TrashIcon } from '@tm/web-platform';
import { useCallback, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { MenuButton, useMenuKeys, type MenuStart } from './menu-button';

interface TaskActionsProps {
  title: string;
  isPinned: boolean;
  /** Small screens get an overflow menu instead of the buttons (docs/PRODUCT.md §2). */
  compact: boolean;
  /** Turns the title into a text field (docs/PRODUCT.md §10.11.1). */
  onEdit: () => void;
  onTogglePinned: () => void;
  onDelete: () => void;
  /** Opens the task's change history (docs/PRODUCT.md §10.4). */
  onShowHistory: () => void;
  /** Opens the task's due-date picker (docs/PRODUCT.md §10.14). */
  onPickDue: () => void;
  /** Opens "Move to…": the lists, Inbox first (docs/PRODUCT.md §10.19). */
  onMoveTo: () => void;
  /** Opens the choice of the task's priority (docs/PRODUCT.md §10.20). */
  onPickPriority: () => void;
  /** Opens the task's labels to tick (docs/PRODUCT.md §10.20). */
  onEditLabels: () => void;
  /** Opens the task's details: its title, note and subtasks (docs/PRODUCT.md §10.21). */
  onOpenDetails: () => void;
  /** Called once the delete control has let go of focus: the row is leaving, the list moves the focus on. */
  onFocusLost: () => void;
}

/** “Buy oat milk”: how a control names the task it acts on (PRODUCT §10.9). */
export function quoted(title: string): string {
  return `“${title}”`;
}

/**
 * The edit, details, pin, delete, history, due-date, priority, labels and move actions of one task row, named with the
 * task's title and with a tooltip each. The control that started an edit (`data-edit-return`) gets the focus back when the edit ends
 * with Enter or Escape; the one that opened the history or the due-date picker gets it back when its dialog closes.
 */
export function TaskActions(props: TaskActionsProps) {
  return props.compact ? <TaskActionsMenu {...props} /> : <TaskActionButtons {...props} />;
}

function TaskActionButtons({ title, isPinned, onEdit, onTogglePinned, onDelete, onShowHistory, onPickDue, onMoveTo, onPickPriority, onEditLabels, onOpenDetails, onFocusLost }: TaskActionsProps) {
  const detailsLabel = `Details of ${quoted(title)}`;
  const moveLabel = `Move ${quoted(title)} to…`;
  const priorityLabel = `Priority of ${quoted(title)}`;
  const labelsLabel = `Labels of ${quoted(title)}`;
  const editLabel = `Edit ${quoted(title)}`;
  const historyLabel = `History of ${quoted(title)}`;
  const dueLabel = `Due date of ${quoted(title)}`;
  const pinLabel = `${isPinned ? 'Unpin' : 'Pin'} ${quoted(title)}`;
  const deleteLabel = `Delete ${quoted(title)}`;
  return (
    <div className="tasks-item__actions">
      <button type="button" className="tasks-icon-button" aria-label={editLabel} title={editLabel} data-edit-return onClick={onEdit}>
        <EditIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={detailsLabel} title={detailsLabel} aria-haspopup="dialog" onClick={onOpenDetails}>
        <NoteIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={pinLabel} title={pinLabel} aria-pressed={isPinned} onClick={onTogglePinned}>
        <PinIcon filled={isPinned} />
      </button>
      <button
        type="button"
        className="tasks-icon-button tasks-icon-button--danger"
        aria-label={deleteLabel}
        title={deleteLabel}
        onClick={() => {
          onDelete();
          onFocusLost();
        }}
      >
        <TrashIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={historyLabel} title={historyLabel} aria-haspopup="dialog" onClick={onShowHistory}>
        <HistoryIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={dueLabel} title={dueLabel} aria-haspopup="dialog" onClick={onPickDue}>
        <CalendarIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={priorityLabel} title={priorityLabel} aria-haspopup="dialog" onClick={onPickPriority}>
        <FlagIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={labelsLabel} title={labelsLabel} aria-haspopup="dialog" onClick={onEditLabels}>
        <TagIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={moveLabel} title={moveLabel} aria-haspopup="dialog" onClick={onMoveTo}>
        <MoveIcon />
      </button>
    </div>
  );
}

type HandOff = 'delete' | 'edit' | null;
interface MenuPosition {
  top: number;
  left: number;
}

const GAP = 4;

/**
 * Where the open menu goes: under its button, right edges aligned; above it when there is no room below;
 * never past the left edge of the viewport. Fixed, so no scrolling or clipping ancestor of the row can cut it.
 */
function placeMenu(trigger: HTMLElement, menu: HTMLElement): MenuPosition {
  const anchor = trigger.getBoundingClientRect();
  const { offsetWidth: width, offsetHeight: height } = menu;
  const below = anchor.bottom + GAP;
  const top = below + height > window.innerHeight && anchor.top - GAP - height >= 0 ? anchor.top - GAP - height : below;
  return { top, left: Math.max(GAP, anchor.right - width) };
}

/**
 * The overflow menu of small screens, a WAI-ARIA menu button, with no menu library (docs/PERFORMANCE.md "First-load budgets"):
 * Enter, Space, a click or ArrowDown opens it on its first item, ArrowUp on its last; arrows (wrapping),
 * Home and End move between items; Enter or Space picks one; Escape and Tab close it and give the focus
 * back to the button, as does picking Details, Pin, History, Due date, Priority, Labels or Move (whose dialogs give it back again when they close). Picking Edit leaves the focus in the title's field, picking
 * Delete hands it on (the row is leaving). A click outside closes it. It is rendered at the end of <body>
 * and does not hide the rest of the page (a modal menu would aria-hide controls that stay focusable).
 */
function TaskActionsMenu({ title, isPinned, onEdit, onTogglePinned, onDelete, onShowHistory, onPickDue, onMoveTo, onPickPriority, onEditLabels, onOpenDetails, onFocusLost }: TaskActionsProps) {
  const [open, setOpen] = useState<MenuStart | null>(null);
  const [position, setPosition] = useState<MenuPosition | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const triggerId = useId();
  const menuLabel = `More actions for ${quoted(title)}`;

  /** Closes the menu; `handOff` says where the focus goes instead of back to the button. */
  const close = useCallback(
    (handOff: HandOff | 'outside') => {
      setOpen(null);
      setPosition(null);
      if (handOff === 'delete') onFocusLost();
      else if (handOff === null) trigger.current?.focus({ preventScroll: true });
    },
    [onFocusLost],
  );
  const { highlighted, setHighlighted, focusItem, onKeyDown: onMenuKeyDown } = useMenuKeys(menu, () => close(null));

  useLayoutEffect(() => {
    if (!open || !trigger.current || !menu.current) return;
    const place = () => {
      if (trigger.current && menu.current) setPosition(placeMenu(trigger.current, menu.current));
    };
    place();
    focusItem(open === 'first' ? 0 : -1);
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !trigger.current?.contains(target)) close('outside');
    };
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open, close, focusItem]);


  // Picking an item: the action first (a delete takes the row away), then the focus goes where `handOff` says.
  // Items are not buttons, so that the menu's own stylesheet alone decides how they look.
  const item = (label: string, icon: ReactNode, index: number, action: () => void, handOff: HandOff, danger = false) => {
    const choose = () => {
      action();
      close(handOff);
    };
    return (
      <div
        role="menuitem"
        tabIndex={-1}
        className={`tasks-menu__item${danger ? ' tasks-menu__item--danger' : ''}`}
        data-highlighted={highlighted === index ? '' : undefined}
        onPointerMove={() => highlighted !== index && focusItem(index)}
        onFocus={() => setHighlighted(index)}
        onClick={choose}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' && event.key !== ' ') return;
          event.preventDefault();
          choose();
        }}
      >
        {icon}
        {label}
      </div>
    );
  };

  return (
    <div className="tasks-item__actions">
      <MenuButton
        buttonRef={trigger}
        id={triggerId}
        className="tasks-icon-button"
        label={menuLabel}
        menuId={menuId}
        isOpen={open !== null}
        onOpen={setOpen}
        onClose={() => close(null)}
        data-state={open ? 'open' : 'closed'}
        data-edit-return
      >
        <MoreIcon />
      </MenuButton>
      {open &&
        createPortal(
          <div
            ref={menu}
            id={menuId}
            role="menu"
            tabIndex={-1}
            aria-labelledby={triggerId}
            aria-orientation="vertical"
            className="tasks-menu"
            // Placed before the first paint, once it has a size (see the layout effect above).
            style={{ position: 'fixed', top: position?.top ?? 0, left: position?.left ?? 0 }}
            onKeyDown={onMenuKeyDown}
          >
            {item('Edit', <EditIcon />, 0, onEdit, 'edit')}
            {/* PRODUCT §10.21: the task's title, note and subtasks, a sheet as tall as the screen. */}
            {item('Details…', <NoteIcon />, 1, onOpenDetails, null)}
            {item(isPinned ? 'Unpin' : 'Pin', <PinIcon filled={isPinned} />, 2, onTogglePinned, null)}
            {item('History', <HistoryIcon />, 3, onShowHistory, null)}
            {/* "…": it opens a dialog that asks for the date (docs/PRODUCT.md §10.14). */}
            {item('Due date…', <CalendarIcon />, 4, onPickDue, null)}
            {/* PRODUCT §10.20: each opens a small dialog, the four priorities or the labels to tick. */}
            {item('Priority…', <FlagIcon />, 5, onPickPriority, null)}
            {item('Labels…', <TagIcon />, 6, onEditLabels, null)}
            {item('Move to…', <MoveIcon />, 7, onMoveTo, null)}
            {/* The destructive item last, on its own edge of the menu. */}
            {item('Delete', <TrashIcon />, 8, onDelete, 'delete', true)}
          </div>,
          document.body,
        )}
    </div>
  );
}
