import type { TaskList } from '@tm/contracts';

/** A list's colour dot (docs/PRODUCT.md §10.19): decorative, the name beside it says which list it is. */
export function ListDot({ colour }: { colour: TaskList['colour'] }) {
  return <span className="lists-dot" style={{ background: `var(--list-${colour})` }} aria-hidden="true" />;
}
