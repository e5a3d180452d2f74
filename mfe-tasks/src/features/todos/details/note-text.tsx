import { noteParts } from '@tm/contracts';

/**
 * A note as text (docs/PRODUCT.md §10.21): its lines and spaces as written, each http(s) address a link that
 * opens in a new tab (rel="noopener noreferrer": the page it opens gets no hold on this one, nor the address of
 * it). Nothing else in a note is rendered: every piece is a text node, so no markup in it ever becomes any.
 */
export function NoteText({ note, className }: { note: string; className?: string }) {
  return (
    <p className={className} dir="auto">
      {noteParts(note).map((part, index) =>
        'href' in part ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
