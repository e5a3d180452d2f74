import { useEffect, useId, useRef, useState } from 'react';
import { importCountText, type ExportFormat, type ImportProblem, type ImportRefusal, type ImportResponse } from '@tm/contracts';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { FormAlert } from '../../../common/forms/form-alert';
import { downloadExport, EXPORT_FALLBACK, importFile } from '../api/transfer';
import { describeError } from '@tm/api-client';
import { useOneAtATime } from './use-one-at-a-time';
import './transfer.css';

export const EXPORT_TEXT = 'Download everything: your lists and tasks with their notes, subtasks, labels, dates and history.';
export const IMPORT_TEXT = 'Bring in tasks from a file: a JSON export of Task Manager, or the CSV export of a Todoist project (its name becomes the list).';

/** Where the import stands: nothing chosen, a file checked and waiting for the go-ahead, done, or refused. */
type Stage =
  | { kind: 'idle' }
  | { kind: 'checking'; fileName: string }
  | { kind: 'preview'; fileName: string; content: string; answer: ImportResponse }
  | { kind: 'importing'; fileName: string }
  | { kind: 'done'; answer: ImportResponse }
  | { kind: 'problems'; fileName: string; refusal: ImportRefusal }
  | { kind: 'failed'; message: string };

/** A chosen file's text, as UTF-8 (FileReader: every browser the app supports has it). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file, 'utf-8');
  });
}

/** Where a problem is, in words: "Line 3, PRIORITY" or "tasks[2].title". */
function whereOf({ line, path, field }: ImportProblem): string {
  if (line !== undefined) return `Line ${line}, ${field}`;
  return path ?? field;
}

/** The lines kept as text, listed under a preview or a result. */
function KeptAsText({ items }: { items: readonly ImportProblem[] }) {
  if (items.length === 0) return null;
  return (
    <>
      <p className="account__text">Kept as text, not guessed:</p>
      <ul className="transfer__list">
        {items.map((item) => (
          <li key={`${whereOf(item)}-${item.message}`}>
            <span className="transfer__where">{whereOf(item)}:</span> {item.message}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The section's controls (docs/PRODUCT.md §10.23), in their own chunk. **Export as JSON** and **Export as CSV**
 * download the file. **Import…** opens the file picker (.json, .csv); the file is checked by the server without
 * writing and the page says what will happen ("312 tasks in 3 lists", the lists it makes, what it keeps as
 * text), with **Import** and **Cancel**; then the result, or every problem with its line. The focus follows:
 * to the preview's heading, then to the result or the problems.
 */
export default function TransferControls() {
  const once = useOneAtATime();
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const picker = useRef<HTMLInputElement>(null);
  const focusTarget = useRef<HTMLElement>(null);
  const headingId = useId();

  useEffect(() => {
    if (stage.kind === 'preview' || stage.kind === 'done' || stage.kind === 'problems' || stage.kind === 'failed') focusTarget.current?.focus();
  }, [stage.kind]);

  const exportAs = (format: ExportFormat) =>
    once(async () => {
      setExporting(format);
      try {
        const fileName = await downloadExport(format);
        notifySuccess(`Downloaded ${fileName}`);
      } catch (error) {
        notifyError(describeError(error, EXPORT_FALLBACK));
      } finally {
        setExporting(null);
      }
    });

  async function chosen(file: File | undefined) {
    if (file === undefined) return;
    setStage({ kind: 'checking', fileName: file.name });
    let content: string;
    try {
      content = await readText(file);
    } catch {
      setStage({ kind: 'failed', message: `${file.name} could not be read. Choose the file again.` });
      return;
    }
    const checked = await importFile(file.name, content, true);
    if (checked.kind === 'done') setStage({ kind: 'preview', fileName: file.name, content, answer: checked.answer });
    else if (checked.kind === 'problems') setStage({ kind: 'problems', fileName: file.name, refusal: checked.refusal });
    else setStage({ kind: 'failed', message: checked.message });
  }

  const confirm = () =>
    once(async () => {
      if (stage.kind !== 'preview') return;
      const { fileName, content } = stage;
      setStage({ kind: 'importing', fileName });
      const result = await importFile(fileName, content, false);
      if (result.kind === 'done') {
        setStage({ kind: 'done', answer: result.answer });
        notifySuccess(result.answer.message);
      } else if (result.kind === 'problems') setStage({ kind: 'problems', fileName, refusal: result.refusal });
      else setStage({ kind: 'failed', message: result.message });
    });

  const busy = stage.kind === 'checking' || stage.kind === 'importing';
  return (
    <>
      <p className="account__text">{EXPORT_TEXT}</p>
      <div className="transfer__actions">
        <button type="button" className="account-button" aria-disabled={exporting !== null || undefined} onClick={() => exportAs('json')}>
          {exporting === 'json' ? 'Exporting…' : 'Export as JSON'}
        </button>
        <button type="button" className="account-button" aria-disabled={exporting !== null || undefined} onClick={() => exportAs('csv')}>
          {exporting === 'csv' ? 'Exporting…' : 'Export as CSV'}
        </button>
      </div>

      <p className="account__text transfer__import-text">{IMPORT_TEXT}</p>
      <input
        ref={picker}
        className="transfer__picker"
        type="file"
        accept=".json,.csv,application/json,text/csv"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          void chosen(file);
        }}
      />
      <button type="button" className="account-button" aria-disabled={busy || undefined} onClick={() => !busy && picker.current?.click()}>
        {stage.kind === 'checking' ? 'Reading the file…' : stage.kind === 'importing' ? 'Importing…' : 'Import…'}
      </button>

      <div className="transfer__outcome" aria-live="polite">
        {stage.kind === 'preview' && (
          <div className="transfer__panel" role="group" aria-labelledby={headingId}>
            <h3 className="transfer__heading" id={headingId} tabIndex={-1} ref={(node) => void (focusTarget.current = node)}>
              {stage.fileName}: {importCountText(stage.answer.tasks, stage.answer.lists)}
            </h3>
            {stage.answer.newLists.length > 0 && <p className="account__text">New lists: {stage.answer.newLists.join(', ')}.</p>}
            <KeptAsText items={stage.answer.keptAsText} />
            <div className="transfer__actions">
              <button type="button" className="account-button account-button--primary" onClick={confirm}>
                Import {importCountText(stage.answer.tasks, stage.answer.lists).split(' in ')[0]}
              </button>
              <button type="button" className="account-button" onClick={() => setStage({ kind: 'idle' })}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {stage.kind === 'done' && (
          <div className="transfer__panel">
            <p className="transfer__heading" role="status" tabIndex={-1} ref={(node) => void (focusTarget.current = node)}>
              {stage.answer.message}
            </p>
            <KeptAsText items={stage.answer.keptAsText} />
          </div>
        )}
        {stage.kind === 'problems' && (
          <div className="transfer__panel transfer__panel--problems">
            <p className="transfer__heading" role="alert" tabIndex={-1} ref={(node) => void (focusTarget.current = node)}>
              {stage.fileName}: {stage.refusal.message}
            </p>
            <ul className="transfer__list" aria-label="Problems in the file">
              {stage.refusal.problems.map((problem) => (
                <li key={`${whereOf(problem)}-${problem.message}`}>
                  <span className="transfer__where">{whereOf(problem)}:</span> {problem.message}
                </li>
              ))}
            </ul>
            {stage.refusal.problemCount > stage.refusal.problems.length && (
              <p className="account__text">And {stage.refusal.problemCount - stage.refusal.problems.length} more.</p>
            )}
          </div>
        )}
        {stage.kind === 'failed' && (
          <div className="transfer__panel" tabIndex={-1} ref={(node) => void (focusTarget.current = node)}>
            <FormAlert message={stage.message} />
          </div>
        )}
      </div>
    </>
  );
}
