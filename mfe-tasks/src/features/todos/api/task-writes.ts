import { answerError } from '@tm/api-client';
import { sendTaskWrite, type CommandBuilder } from '@tm/web-platform';
import type { QueryClient } from '@tanstack/react-query';

/** An action kept on the device to be sent later (docs/PRODUCT.md §10.4): it shows already, and counts as pending. */
export interface Queued {
  queued: true;
  /** The command that carries it (an Undo while it still waits takes it back by this id). */
  commandId: string;
}

export const isQueued = (answer: unknown): answer is Queued => typeof answer === 'object' && answer !== null && (answer as Partial<Queued>).queued === true;

/**
 * One task action (docs/PRODUCT.md §10.4), through the device's sync engine when there is one: kept on the
 * device, shown at once, and sent now or as soon as the network allows. Resolves the server's answer as the
 * call alone would (a refusal rejects with the same error), or {@link Queued} when no answer came (offline, a
 * server that did not answer: it is sent again, once). Without an engine (no IndexedDB) the call is made alone
 * (`direct`), failing when offline. `onKept` runs as soon as the action is kept on the device and shown.
 */
export async function writeTask<T>(queryClient: QueryClient, command: CommandBuilder, direct: () => Promise<T>, onKept?: () => void): Promise<T | Queued> {
  const outcome = await sendTaskWrite(queryClient, command, onKept);
  if (outcome === null) return direct();
  if (outcome.kind === 'queued') return { queued: true, commandId: outcome.commandId };
  const { status, body } = outcome.result;
  if (status >= 200 && status < 300) return body as T;
  throw answerError(status, body);
}
