// Browser APIs jsdom lacks, for the shell's component tests. The API is never mocked.

/**
 * A modal <dialog> as far as the tests need it: showModal() sets `open` and focuses the first control,
 * close() removes it and fires "close". (The focus trap and the inert page behind are the browser's.)
 * Returns the function that takes the stub away.
 */
export function stubDialog(): () => void {
  const prototype = HTMLDialogElement.prototype as Partial<HTMLDialogElement>;
  const original = { showModal: prototype.showModal, close: prototype.close };
  Object.assign(prototype, {
    showModal(this: HTMLDialogElement) {
      this.setAttribute('open', '');
      this.querySelector<HTMLElement>('button')?.focus();
    },
    close(this: HTMLDialogElement) {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    },
  });
  return () => Object.assign(prototype, original);
}
