/** A link of the header or of its account menu, brought by a remote's route (docs/PRODUCT.md §2 Header). */
export interface HeaderLink {
  to: string;
  label: string;
}
