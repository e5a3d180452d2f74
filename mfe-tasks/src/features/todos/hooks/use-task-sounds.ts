import { SOUNDS } from '../constants';
import { useSound } from './use-sound';

/**
 * The list's sounds (docs/PRODUCT.md §2; a file that fails stays silent, §8; off with the Sounds preference,
 * §10.10): each a function that plays its sound, the same function across renders (see useSound for when
 * the files load). In order: a task became completed (once the server confirmed it, §10.6), a task was
 * deleted, a task was added (the text of an edit whose task was deleted elsewhere, added as a new task).
 */
export function useTaskSounds(): [success: () => void, deleted: () => void, added: () => void] {
  const success = useSound(SOUNDS.success);
  const deleted = useSound(SOUNDS.deleted);
  const added = useSound(SOUNDS.added);
  return [success, deleted, added];
}
