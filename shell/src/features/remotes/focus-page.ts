import type { Location, NavigateFunction } from 'react-router-dom';
import { focusInOpenLayer } from '@tm/web-platform';
import { NEW_TASK_PARAM } from './new-task-param';

/** The accessible name of the field a new task is written in (the task screen's visually hidden label). */
const NEW_TASK_LABEL = 'New task';

/**
 * Where the focus goes once a screen is on screen (PageFocus; PRODUCT §10.9, §10.13):
 * - with `?new=1` (the installed app's "Add a task" shortcut), into the screen's field labelled "New task";
 *   then the address drops the query, so a reload or Back does not do it again;
 * - otherwise, after a navigation from another screen, to the screen's heading (its first `<h1>`, made
 *   focusable by script with tabIndex -1), or to `<main>` when it has none, so a keyboard or screen-reader
 *   user starts at the top of the new screen as after a page load; unless the screen put the focus
 *   somewhere itself (the new-task input after a sign-in) or the person opened a menu or a dialog while the
 *   screen arrived (the focus stays in it).
 */
export function focusPage(location: Location, navigate: NavigateFunction, newTask: boolean): void {
  const main = document.getElementById('main');
  if (!main) return;
  if (newTask) {
    const label = [...main.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === NEW_TASK_LABEL);
    label?.control?.focus();
    const params = new URLSearchParams(location.search);
    params.delete(NEW_TASK_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state: location.state as unknown });
    return;
  }
  const active = document.activeElement;
  if (active && active !== main && main.contains(active)) return;
  if (focusInOpenLayer()) return;
  const target = main.querySelector<HTMLElement>('h1') ?? main;
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}
