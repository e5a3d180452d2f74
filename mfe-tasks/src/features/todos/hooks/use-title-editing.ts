import type { Todo } from '@tm/api-client';
import { useEffect, useRef, useState, type RefObject } from 'react';

/** What opened a title's editor: a control (the Edit button, or the menu on small screens), or the title itself. */
type EditStarter = 'control' | 'title';

/**
 * Whether a row's title editor is open, and where the focus goes when it closes (docs/PRODUCT.md §10.11.1,
 * §10.9): after Enter or Escape, back to the control that started the edit, or to the checkbox after a tap
 * on the title; after leaving the field, nowhere (the person moved it). When a task deleted elsewhere is
 * restored (or its text added as a new task), its editor closes and the focus, which was on a button just
 * gone, goes to the row's checkbox.
 *
 * `row` and `checkbox` are where the focus goes back to; `deletedElsewhere` keeps the editor open until the
 * person decides; `onEditing` tells the list the editor opened or closed. Returns whether it is open, how to
 * open it and how to close it.
 */
export function useTitleEditing(
  todo: Todo,
  row: RefObject<HTMLElement | null>,
  checkbox: RefObject<HTMLInputElement | null>,
  deletedElsewhere: boolean,
  onEditing: (todo: Todo, editing: boolean) => void,
): [editing: boolean, startEditing: (by: EditStarter) => void, stopEditing: (how: 'enter' | 'escape' | 'blur') => void] {
  const [editingHere, setEditing] = useState(false);
  // A task deleted elsewhere keeps its editor open, with what was typed, until the person decides.
  const editing = editingHere || deletedElsewhere;
  const editStartedBy = useRef<EditStarter>('control');
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    const control = editStartedBy.current === 'control' ? row.current?.querySelector<HTMLElement>('[data-edit-return]') : null;
    (control ?? checkbox.current)?.focus();
  }, [editing, row, checkbox]);

  const wasGone = useRef(false);
  useEffect(() => {
    if (deletedElsewhere) {
      wasGone.current = true;
      return;
    }
    if (!wasGone.current) return;
    wasGone.current = false;
    setEditing(false);
    const active = document.activeElement;
    if (!active || active === document.body || row.current?.contains(active)) checkbox.current?.focus();
  }, [deletedElsewhere, row, checkbox]);

  const startEditing = (by: EditStarter) => {
    editStartedBy.current = by;
    setEditing(true);
    onEditing(todo, true);
  };
  const stopEditing = (how: 'enter' | 'escape' | 'blur') => {
    refocus.current = how !== 'blur';
    setEditing(false);
    onEditing(todo, false);
  };
  return [editing, startEditing, stopEditing];
}
