import { INBOX_ID, INBOX_NAME, listNameValue, type TaskList } from '@tm/contracts';
import { ModalDialog } from '@tm/web-platform';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { preloadable } from '../components/preloadable';
import { MenuButton, type MenuStart } from '../components/menu-button';
import { listNameError, ListNameField } from './list-name-field';
import { listAddress, useListActions } from './lists-api';
import type { ListScope } from './current-list';
import { ListDot } from './list-dot';
import { SavedFiltersNav } from '../saved-filters/saved-filters-nav';

// The list menu (with its colour picker and its dialogs) is off the first load (docs/PERFORMANCE.md
// "First-load budgets"): fetched when a list's menu button is first pointed at or opened.
const { Component: ListMenu, preload: preloadListMenu } = preloadable(() => import('./list-menu').then((module) => module.ListMenu));

interface ListsNavProps {
  scope: ListScope;
  lists: TaskList[];
  /** Open tasks per list id (the Inbox under INBOX_ID), and for all tasks under ''. */
  counts: Map<string, number>;
  /** Open tasks in all. */
  allCount: number;
  /** All tasks, for the count a list's delete asks about. */
  taskCountOf: (listId: string) => number;
  /** A list was chosen (the drawer closes). */
  onChosen?: () => void;
  /** The sidebar's lists take a task dragged onto them while Reorder is on (§10.24): each holds a drop slot. */
  dropSlots?: boolean;
}

/**
 * The attribute of a list's drop slot: an empty element holding the list's id (the Inbox's is INBOX_ID), where
 * the rows' drag and drop, loaded with Reorder, draws its target (docs/PRODUCT.md §10.24 "Onto another list").
 */
export const LIST_DROP_SLOT = 'data-drop-list';

function count(value: number) {
  return value > 0 ? (
    <span className="lists-nav__count" aria-label={`${value} open`}>
      {value}
    </span>
  ) : null;
}

/**
 * The lists (docs/PRODUCT.md §10.19): All tasks, Inbox, each active list with its colour dot, name and open
 * tasks, "New list", and an "Archived" disclosure holding the archived ones. The current one is marked
 * (aria-current="page"). Links without a list element around them: the page's only list items are its tasks.
 * A sidebar on wide screens, the content of the "Lists" drawer on phones.
 */
export function ListsNav({ scope, lists, counts, allCount, taskCountOf, onChosen, dropSlots = false }: ListsNavProps) {
  const active = lists.filter((list) => !list.archived);
  const archived = lists.filter((list) => list.archived);
  const current = scope.kind === 'all' ? '' : scope.kind === 'inbox' ? INBOX_ID : scope.kind === 'list' ? scope.list._id : scope.listId;
  const [menuOf, setMenuOf] = useState<string | null>(null);
  const link = (listId: string | null, label: string, open: number, dot?: TaskList['colour']) => (
    <Link className="lists-nav__link" to={listAddress(listId)} aria-current={(listId ?? '') === current ? 'page' : undefined} onClick={onChosen}>
      {dot && <ListDot colour={dot} />}
      <span className="lists-nav__name">{label}</span>
      {count(open)}
    </Link>
  );
  // The list shown is no place to move its own tasks to.
  const slot = (listId: string, name: string) =>
    dropSlots && listId !== current && <span className="lists-nav__drop" {...{ [LIST_DROP_SLOT]: listId }} data-drop-name={name} aria-hidden="true" />;
  const listRow = (list: TaskList) => (
    <div key={list._id} className="lists-nav__row">
      {link(list._id, list.name, counts.get(list._id) ?? 0, list.colour)}
      {!list.archived && slot(list._id, list.name)}
      <ListMenuButton list={list} lists={lists} open={menuOf === list._id} onOpen={() => setMenuOf(list._id)} onClose={() => setMenuOf(null)} taskCount={taskCountOf(list._id)} current={current === list._id} />
    </div>
  );
  return (
    <>
      <nav className="lists-nav" aria-label="Lists">
        <div className="lists-nav__row">{link(null, 'All tasks', allCount)}</div>
        <div className="lists-nav__row">
          {link(INBOX_ID, INBOX_NAME, counts.get(INBOX_ID) ?? 0)}
          {slot(INBOX_ID, INBOX_NAME)}
        </div>
        {active.map(listRow)}
        <NewListForm lists={lists} onMade={onChosen} />
        {archived.length > 0 && (
          <details className="lists-nav__archived" open={scope.kind === 'list' && scope.list.archived ? true : undefined}>
            <summary className="lists-nav__summary">Archived ({archived.length})</summary>
            {archived.map(listRow)}
          </details>
        )}
      </nav>
      <SavedFiltersNav onChosen={onChosen} />
    </>
  );
}

interface ListMenuButtonProps {
  list: TaskList;
  lists: TaskList[];
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  taskCount: number;
  current: boolean;
}

/** The button of a list's menu (WAI-ARIA menu button); the menu itself loads on first use. */
function ListMenuButton({ list, lists, open, onOpen, onClose, taskCount, current }: ListMenuButtonProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [from, setFrom] = useState<MenuStart>('first');
  return (
    <>
      <MenuButton
        buttonRef={trigger}
        className="lists-nav__menu-button"
        label={`Actions for list “${list.name}”`}
        menuId={menuId}
        isOpen={open}
        onOpen={(start) => {
          setFrom(start);
          onOpen();
        }}
        onClose={onClose}
        onPointerEnter={() => void preloadListMenu()}
        onFocus={() => void preloadListMenu()}
      >
        <span aria-hidden="true">⋯</span>
      </MenuButton>
      {open && <ListMenu id={menuId} list={list} lists={lists} taskCount={taskCount} current={current} trigger={trigger} from={from} onClose={onClose} />}
    </>
  );
}

/** "New list": a name (checked as the server checks it; a name the person already uses is refused here too). */
function NewListForm({ lists, onMade }: { lists: TaskList[]; onMade?: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const { create } = useListActions();
  const navigate = useNavigate();
  const close = () => {
    setOpen(false);
    setName('');
    setProblem(null);
    toggle.current?.focus();
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const wrong = listNameError(name, lists);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setBusy(true);
    void create({ name: listNameValue(name) }).then((id) => {
      setBusy(false);
      if (id === null) return;
      setOpen(false);
      setName('');
      onMade?.();
      // The new list is opened, so its first task can be added at once.
      void navigate(listAddress(id));
    });
  };
  if (!open) {
    return (
      <button ref={toggle} type="button" className="lists-nav__new" onClick={() => setOpen(true)}>
        <span aria-hidden="true">+</span> New list
      </button>
    );
  }
  return (
    <form className="lists-nav__form" onSubmit={submit} noValidate aria-busy={busy}>
      <ListNameField
        label="List name"
        value={name}
        problem={problem}
        inputClassName="lists-nav__input"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the field the person just asked for
        autoFocus
        onChange={(value) => {
          setName(value);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          close();
        }}
      />
      <div className="lists-nav__form-actions">
        <button type="submit" className="tasks-button">
          Create list
        </button>
        <button type="button" className="tasks-text-button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Phones (docs/PRODUCT.md §10.19): a "Lists" button in the list's header opens the same lists as a modal
 * drawer (a <dialog>: the focus stays inside, Escape closes it, the focus goes back to the button); choosing
 * a list closes it.
 */
export function ListsDrawer({ onChosen, ...props }: ListsNavProps & { onChosen: () => void }) {
  const [open, setOpen] = useState(false);
  const chosen = useRef(false);
  const titleId = useId();
  // A choice closes the drawer and changes the screen under it (§10.19): the focus goes to what was chosen
  // (`onChosen`: the list's heading) rather than back to the "Lists" button, once the new screen is drawn.
  useEffect(() => {
    if (open || !chosen.current) return;
    chosen.current = false;
    onChosen();
  }, [open, onChosen]);
  return (
    <>
      <button type="button" className="tasks-text-button lists-drawer__button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Lists
      </button>
      {open && (
        <ModalDialog className="lists-drawer" labelledBy={titleId} onClose={() => setOpen(false)} closeButtonClassName="tasks-text-button lists-drawer__close">
          <h2 id={titleId} className="lists-drawer__title">
            Lists
          </h2>
          <ListsNav
            {...props}
            onChosen={() => {
              chosen.current = true;
              setOpen(false);
            }}
          />
        </ModalDialog>
      )}
    </>
  );
}
