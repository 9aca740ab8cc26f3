// Format integer cents for display; never do arithmetic on formatted strings.
export function formatCents(cents: number, currency = "EUR"): string {
  return new Intl.NumberFormat("en", { style: "currency", currency }).format(cents / 100);
}
