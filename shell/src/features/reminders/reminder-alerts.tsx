import { ReminderAlerts } from '@tm/web-platform/reminders';
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** The address a reminder's notification opens (shell/public/sw-reminders.js): `/?task=<id>` (PRODUCT §10.17). */
const TASK_PARAM = 'task';

/**
 * The page's reminders (PRODUCT §10.17), loaded after the first paint for a signed-in person. Opening a task
 * goes to the list with it focused, as Today's titles do (history state `{ focusTask }`, read by mfe-tasks); a
 * notification's `/?task=<id>` is turned into that state and dropped from the address.
 */
export default function ShellReminders() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const open = useCallback((todoId: string) => void navigate('/', { state: { focusTask: todoId } }), [navigate]);
  useEffect(() => {
    const todoId = new URLSearchParams(search).get(TASK_PARAM);
    if (pathname === '/' && todoId) void navigate('/', { replace: true, state: { focusTask: todoId } });
  }, [navigate, pathname, search]);
  return <ReminderAlerts open={open} />;
}
