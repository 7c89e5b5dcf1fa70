'use client';
// "Print" on the receipt page: the browser's own print dialog (the print stylesheet lays out one A4 page).
// Disabled (visibly) until the script runs: before that a tap could not open the dialog.
import { useLive } from './use-polling';

export function PrintButton({ label }: { label: string }) {
  const live = useLive();
  return (
    <button
      type="button"
      className="secondary no-print"
      onClick={() => window.print()}
      disabled={!live}
      data-testid="print"
    >
      {label}
    </button>
  );
}
