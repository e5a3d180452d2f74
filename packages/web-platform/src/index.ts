export { AFTER_SIGN_IN_STATE, isAfterSignIn } from './after-sign-in.js';
export { focusInOpenLayer } from './focus-in-layer.js';
export { ConnectionProblem } from './connection-problem.js';
export { CalendarIcon, CheckIcon, ChecklistIcon, EditIcon, FlagIcon, HistoryIcon, InfoIcon, LogoutIcon, MoonIcon, MoreIcon, MoveIcon, NoteIcon, PinIcon, SunIcon, TagIcon, TrashIcon, UserIcon } from './icons.js';
export { DRAFT_MAX_AGE_MS, forgetDrafts, hasDraft, keepDraft, keepOnlyDraftsOf, readDraft } from './drafts.js';
export { notifyError, notifySuccess } from './notify.js';
export { isLiveSyncConnected, setLiveSyncConnected } from './live-sync.js';
export { applyChange, useLiveTodos } from './live-todos.js';
export { releaseKeptScreen, startedFromKeptScreen, useKeptScreen } from './kept-screen.js';
export { OfflineBanner } from './offline-banner.js';
export { PlatformProviders } from './platform-providers.js';
export { createQueryClient } from './query-client.js';
export { endSession } from './session.js';
export { TAB_CHANNEL } from './tab-sync.js';
export { useLogout, useSessionEndingMutation } from './use-logout.js';
export { ModalDialog } from './modal-dialog.js';
export { DEFAULT_PREFERENCES, readPreferences, savePreferences, usePreferences, type Preferences } from './preferences.js';
export {
  cancelTaskWrite,
  forgetDeviceTasks,
  pendingTaskChanges,
  resolvedId,
  runningTaskSync,
  sendTaskWrite,
  syncedTodosQuery,
  taskRowKey,
  TASK_SYNC_STATUS_KEY,
  taskSync,
  useTaskSync,
  type CommandBuilder,
  type TaskWriteOutcome,
} from './task-sync.js';
export { dueDate, dueFull, dueText, isOverdue, personNow, personToday, planText, setPersonTimeZone } from './due-text.js';
export { usePersonClock } from './person-clock.js';
export { isTypingTarget, TOUCH_ONLY_QUERY, UNDO_KEY } from './undo-key.js';
export { loadUndoToasts, useUndoKey } from './undo-on-demand.js';
