import { byListPlace, LIST_COLOURS, listNameValue, orderKeyBetween, type ListColour, type TaskList } from '@tm/contracts';
import { ModalDialog } from '@tm/web-platform';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMenuKeys, type MenuStart } from '../components/menu-button';
import { listAddress, useListActions } from './lists-api';
import { listNameError, ListNameField } from './list-name-field';
import { ListDot } from './list-dot';

/**
 * A list's menu (docs/PRODUCT.md §10.19), loaded on first use: Rename…, Colour…, Move up, Move down,
 * Archive / Restore, Delete. A WAI-ARIA menu as the task rows' (arrows, Home, End, Escape and Tab; the focus
 * goes back to its button), with the dialogs it opens: the name, the nine colours by name, and the question
 * before a list with tasks is deleted.
 */

interface ListMenuProps {
  id: string;
  list: TaskList;
  lists: TaskList[];
  /** Tasks in the list (open and completed): a delete of a list with tasks asks first. */
  taskCount: number;
  /** The screen shows this list (a delete then goes to All tasks). */
  current: boolean;
  trigger: RefObject<HTMLButtonElement | null>;
  from: MenuStart;
  onClose: () => void;
}

/** The name a colour goes by: "Grey", "Teal"… */
export const colourName = (colour: ListColour) => colour.charAt(0).toUpperCase() + colour.slice(1);

/**
 * The order key that puts `list` one place up (-1) or down (+1) among the lists of its kind (active or
 * archived): between its new neighbours, so only its own key changes. Null at the edge.
 */
export function movedOrder(list: TaskList, lists: TaskList[], step: -1 | 1): string | null {
  const row = lists.filter((entry) => entry.archived === list.archived).sort(byListPlace);
  const index = row.findIndex((entry) => entry._id === list._id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= row.length) return null;
  const before = step < 0 ? row[target - 1] : row[target];
  const after = step < 0 ? row[target] : row[target + 1];
  return orderKeyBetween(before?.order ?? null, after?.order ?? null);
}

type Dialog = 'rename' | 'colour' | 'delete' | null;

export function ListMenu({ id, list, lists, taskCount, current, trigger, from, onClose }: ListMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const actions = useListActions();
  const navigate = useNavigate();
  const up = movedOrder(list, lists, -1);
  const down = movedOrder(list, lists, 1);

  const close = useCallback(
    (focusBack = true) => {
      onClose();
      if (focusBack) trigger.current?.focus();
    },
    [onClose, trigger],
  );

  const { highlighted, setHighlighted, focusItem, onKeyDown } = useMenuKeys(menu, () => close());

  useLayoutEffect(() => {
    if (dialog === null) focusItem(from === 'first' ? 0 : -1);
  }, [dialog, from, focusItem]);

  useEffect(() => {
    if (dialog !== null) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !trigger.current?.contains(target)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [dialog, close, trigger]);

  const remove = () => {
    close(false);
    if (current) void navigate(listAddress(null));
    void actions.remove(list, taskCount);
    // The list's row goes away: the focus goes to All tasks, the first of the lists.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.lists-nav a[href="/"]')?.focus());
  };

  const items: { label: string; run: () => void; danger?: boolean }[] = [
    { label: 'Rename…', run: () => setDialog('rename') },
    { label: 'Colour…', run: () => setDialog('colour') },
    ...(up === null ? [] : [{ label: 'Move up', run: () => (close(), void actions.update(list, { order: up })) }]),
    ...(down === null ? [] : [{ label: 'Move down', run: () => (close(), void actions.update(list, { order: down })) }]),
    { label: list.archived ? 'Restore' : 'Archive', run: () => (close(), void actions.update(list, { archived: !list.archived })) },
    { label: 'Delete…', run: () => (taskCount > 0 ? setDialog('delete') : remove()), danger: true },
  ];

  if (dialog === 'rename') return <RenameDialog list={list} lists={lists} onDone={() => close()} />;
  if (dialog === 'colour') return <ColourDialog list={list} onDone={() => close()} />;
  if (dialog === 'delete') {
    return <DeleteDialog list={list} taskCount={taskCount} onCancel={() => close()} onDelete={remove} />;
  }
  return (
    <div ref={menu} id={id} role="menu" tabIndex={-1} aria-label={`Actions for list “${list.name}”`} className="tasks-menu lists-menu" onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`tasks-menu__item${item.danger ? ' tasks-menu__item--danger' : ''}`}
          data-highlighted={highlighted === index ? '' : undefined}
          onFocus={() => setHighlighted(index)}
          onClick={item.run}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

function RenameDialog({ list, lists, onDone }: { list: TaskList; lists: TaskList[]; onDone: () => void }) {
  const titleId = useId();
  const [name, setName] = useState(list.name);
  const [problem, setProblem] = useState<string | null>(null);
  const { update } = useListActions();
  const dialog = useRef<HTMLFormElement>(null);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wrong = listNameError(name, lists, list);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    const value = listNameValue(name);
    if (value !== list.name) void update(list, { name: value });
    dialog.current?.closest('dialog')?.close();
  };
  return (
    <ModalDialog className="tasks-dialog lists-dialog" labelledBy={titleId} onClose={onDone} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <form ref={dialog} onSubmit={submit} noValidate>
        <h2 id={titleId} className="tasks-dialog__title">
          Rename “{list.name}”
        </h2>
        <ListNameField
          label="Name"
          value={name}
          problem={problem}
          inputClassName="tasks-form__input"
          onChange={(value) => {
            setName(value);
            setProblem(null);
          }}
        />
        <button type="submit" className="tasks-button">
          Save
        </button>
      </form>
    </ModalDialog>
  );
}

/** The nine colours by name (radio buttons: arrows move, the name is read out, the dot only shows it). */
function ColourDialog({ list, onDone }: { list: TaskList; onDone: () => void }) {
  const titleId = useId();
  const { update } = useListActions();
  const form = useRef<HTMLFieldSetElement>(null);
  const choose = (colour: ListColour) => {
    if (colour !== list.colour) void update(list, { colour });
    form.current?.closest('dialog')?.close();
  };
  return (
    <ModalDialog className="tasks-dialog lists-dialog" labelledBy={titleId} onClose={onDone} closeButtonClassName="tasks-text-button" closeLabel="Cancel">
      <fieldset ref={form} className="lists-colours">
        <legend id={titleId} className="tasks-dialog__title">
          Colour of “{list.name}”
        </legend>
        {LIST_COLOURS.map((colour) => (
          <label key={colour} className="lists-colours__choice">
            <input
              type="radio"
              name="list-colour"
              value={colour}
              defaultChecked={colour === list.colour}
              onKeyDown={(event) => {
                if (event.key === 'Enter') choose(colour);
              }}
              onClick={() => choose(colour)}
            />
            <ListDot colour={colour} />
            {colourName(colour)}
          </label>
        ))}
      </fieldset>
    </ModalDialog>
  );
}

/** "Delete “Work” and its 12 tasks?": Delete list / Cancel. */
function DeleteDialog({ list, taskCount, onCancel, onDelete }: { list: TaskList; taskCount: number; onCancel: () => void; onDelete: () => void }) {
  const titleId = useId();
  const confirmed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      className="tasks-dialog lists-dialog"
      labelledBy={titleId}
      onClose={() => (confirmed.current ? onDelete() : onCancel())}
      closeButtonClassName="tasks-text-button"
      closeLabel="Cancel"
    >
      <h2 id={titleId} className="tasks-dialog__title">
        Delete “{list.name}” and its {taskCount} {taskCount === 1 ? 'task' : 'tasks'}?
      </h2>
      <p>You can undo this for a few seconds afterwards.</p>
      <button
        ref={button}
        type="button"
        className="tasks-button tasks-button--danger"
        onClick={() => {
          confirmed.current = true;
          button.current?.closest('dialog')?.close();
        }}
      >
        Delete list
      </button>
    </ModalDialog>
  );
}
