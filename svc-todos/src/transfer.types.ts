import type { ImportProblem, ListColour, Todo } from '@tm/contracts';

// What an import reads from a file and what it did (docs/PRODUCT.md §10.23): the shapes only, shared by the rules
// (transfer.domain.ts) and the storage port (todos.repository.ts), which imports nothing else of the rules.

/** A task read from a file, before it has an id or a list id: its values and the name of its list (`null`: the Inbox). */
export interface DraftTask {
  /** Where in the file it was read: a CSV line, or a JSON path. */
  where: Pick<ImportProblem, 'line' | 'path'>;
  list: string | null;
  todo: Omit<Todo, '_id' | 'updatedAt' | 'listId' | 'createdAt'> & { createdAt?: string };
}

/** A list a file names: its name as kept, and, from our JSON, its colour and whether it is archived. */
export interface DraftList {
  name: string;
  colour?: ListColour;
  archived?: boolean;
}

/** A file read whole: its tasks and lists, and what was kept as text rather than guessed. */
export interface ImportDraft {
  tasks: DraftTask[];
  lists: DraftList[];
  keptAsText: ImportProblem[];
}

/** What an import did (or, dry, would do): counts and names, or the problems that refused it (nothing written). */
export type ImportOutcome =
  | { kind: 'imported'; message: string; tasks: number; lists: number; newLists: string[]; keptAsText: ImportProblem[] }
  | { kind: 'refused'; problems: ImportProblem[] };
