// A page that only says something: not found, gone, no longer available, an invoice, unavailable.
export function Notice({
  title,
  detail,
  tone = 'neutral',
}: {
  title: string;
  detail: string;
  tone?: 'neutral' | 'bad';
}) {
  return (
    <main className="page">
      <div className="card">
        <div className={`status${tone === 'bad' ? ' bad' : ''}`}>
          <h1>{title}</h1>
        </div>
        <p>{detail}</p>
      </div>
    </main>
  );
}
