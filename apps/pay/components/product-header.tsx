// The product as the buyer sees it: image, name, description, and the amount when it is one figure.
import type { ReactNode } from 'react';

/** Only http(s) images; anything else (javascript:, data:) is not shown. */
function safeImage(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

export function ProductHeader(props: {
  name: string;
  description: string | null;
  imageUrl: string | null;
  total?: { label: string; value: string } | null;
  children?: ReactNode;
}) {
  const image = safeImage(props.imageUrl);
  return (
    <section className="card" aria-labelledby="product-name">
      <div className="product">
        {image && <img src={image} alt="" width={72} height={72} referrerPolicy="no-referrer" />}
        <div>
          <h1 id="product-name">{props.name}</h1>
          {props.description && <p className="description">{props.description}</p>}
        </div>
      </div>
      {props.total && (
        <p className="total">
          <span>{props.total.label}</span>
          <strong data-testid="total">{props.total.value}</strong>
        </p>
      )}
      {props.children}
    </section>
  );
}
