// The merchant's brand on every page (docs/pages.md › Branding): logo and display name at the top,
// support links at the bottom, and the accent colour on buttons and links. Server components only.
import type { CSSProperties, ReactNode } from 'react';
import { isHexColor } from '@svc/domain';
import type { Messages } from '../lib/messages';
import type { Branding } from '../lib/types';

/** The page's <main>, carrying the accent colour as a CSS variable when the merchant set one. */
export function BrandedMain(props: {
  branding: Branding | undefined;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const accent = props.branding?.accentColor;
  // the API checked it; checked again here because it lands in a style attribute
  const branded = accent && isHexColor(accent) ? accent : null;
  const style = branded ? ({ '--brand': branded } as CSSProperties) : undefined;
  return (
    <main
      className={[props.className ?? 'page', branded ? 'branded' : ''].join(' ').trim()}
      style={style}
      data-testid={props.testId}
    >
      {props.children}
    </main>
  );
}

/** Logo (served from our origin by /logo/…) and name. */
export function BrandBar(props: { branding: Branding | undefined; logoPath: string }) {
  const b = props.branding;
  if (!b) return null;
  return (
    <header className="brand" data-testid="brand">
      {b.logoUrl && <img className="brand-logo" src={props.logoPath} alt="" height={40} data-testid="brand-logo" />}
      <p className="brand-name" data-testid="brand-name">
        {b.displayName}
      </p>
    </header>
  );
}

/** "Questions about this order?" with the merchant's support e-mail and page. */
export function SupportLinks(props: { branding: Branding | undefined; m: Messages }) {
  const b = props.branding;
  if (!b || (!b.supportEmail && !b.supportUrl)) return null;
  return (
    <footer className="support" data-testid="support">
      <p>{props.m.supportHeading}</p>
      <ul>
        {b.supportEmail && (
          <li>
            <a href={`mailto:${b.supportEmail}`} data-testid="support-email">
              {b.supportEmail}
            </a>
          </li>
        )}
        {b.supportUrl && (
          <li>
            <a href={b.supportUrl} rel="noopener noreferrer" data-testid="support-url">
              {props.m.supportPage}
            </a>
          </li>
        )}
      </ul>
    </footer>
  );
}
