/** The text of a submitted form's field: '' when there is no such field (or it holds a file, not text). */
export function fieldText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
