import { useRef, useState, type ClipboardEvent } from 'react';

/** What the field says when a paste did not fit (docs/PRODUCT.md §5, §10.7): how long it was, and what was kept. */
export function pasteCutMessage(pasted: number, kept: number, max: number): string {
  return `The pasted text had ${pasted.toLocaleString('en')} characters; a task holds ${max.toLocaleString('en')}, so only the first ${kept.toLocaleString('en')} were pasted.`;
}

/**
 * A paste into a field with a `maxLength`: the browser cuts it silently. This says so at the field (a title
 * holds at most 500 characters, PRODUCT §5, §10.7; a longer paste is never cut without a word). `onPaste`
 * measures what arrives against the room the field has (its length minus the selection it replaces); the
 * message stays until the person next changes the text themselves (`onChange` after the paste's own change).
 */
export function usePasteLimit(max: number) {
  const [cut, setCut] = useState<string | null>(null);
  const pasteChange = useRef(false);
  return {
    cut,
    onPaste: (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const field = event.currentTarget;
      const pasted = event.clipboardData.getData('text').replace(/\r?\n/g, ' ');
      const selected = (field.selectionEnd ?? 0) - (field.selectionStart ?? 0);
      const room = max - (field.value.length - selected);
      pasteChange.current = true;
      setCut(pasted.length > room ? pasteCutMessage(pasted.length, Math.max(0, room), max) : null);
    },
    /** Call from the field's `onChange`. */
    onChange: () => {
      if (pasteChange.current) pasteChange.current = false;
      else setCut(null);
    },
  };
}
