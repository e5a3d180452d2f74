/** The query of the installed app's "Add a task" shortcut (`/?new=1`, shell/public/manifest.webmanifest). */
export const NEW_TASK_PARAM = 'new';
