'use client';
// "Print" on the receipt page: the browser's own print dialog (the print stylesheet lays out one A4 page).
export function PrintButton({ label }: { label: string }) {
  return (
    <button type="button" className="secondary no-print" onClick={() => window.print()} data-testid="print">
      {label}
    </button>
  );
}
