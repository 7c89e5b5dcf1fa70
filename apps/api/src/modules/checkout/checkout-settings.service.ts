import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CheckoutSettingsEntity } from '@svc/db';
import {
  accentColorProblem,
  Branding,
  BRANDING_TEXT_FIELDS,
  httpsUrlProblem,
  originOf,
  originProblem,
} from '@svc/domain';
import { dataKeyOf, openSecret, sealSecret } from '@svc/config';
import { badRequest, SqlService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { MAX_RETURN_ORIGINS, PutCheckoutSettingsDto } from './dto/put-checkout-settings.dto';

/** GET and PUT /v1/checkout/settings: every field, `null` when unset (docs/pages.md › Branding). */
export interface CheckoutSettingsView extends Branding {
  returnOrigins: string[];
  checkoutSecretSet: boolean;
  showReference: boolean;
}

/**
 * What the public reads give the hosted pages: the brand, with the workspace's name when no
 * display name is set; `showReference` tells the session read whether to include the reference.
 */
export interface PublicBranding extends Branding {
  displayName: string;
  showReference: boolean;
}

const COLUMN: Record<keyof PutCheckoutSettingsDto, string> = {
  returnOrigins: 'return_origins',
  displayName: 'display_name',
  logoUrl: 'logo_url',
  accentColor: 'accent_color',
  supportEmail: 'support_email',
  supportUrl: 'support_url',
  showReference: 'show_reference',
};

const viewOf = (row: CheckoutSettingsEntity | undefined): CheckoutSettingsView => ({
  returnOrigins: row?.returnOrigins ?? [],
  checkoutSecretSet: !!row?.checkoutSecretSealed,
  displayName: row?.displayName ?? null,
  logoUrl: row?.logoUrl ?? null,
  accentColor: row?.accentColor ?? null,
  supportEmail: row?.supportEmail ?? null,
  supportUrl: row?.supportUrl ?? null,
  showReference: row?.showReference ?? false,
});
const newSecret = () => randomBytes(32).toString('hex');

/**
 * spec: Resources › Checkout settings; Endpoints › Checkout settings and secret. The secret is
 * stored sealed under SVC_DATA_KEY (issue 21 › 7): the database alone cannot sign a return.
 */
@Injectable()
export class CheckoutSettingsService {
  /** Workspaces known to have a secret: session create skips the upsert for them. */
  private readonly secretKnown = new Set<string>();

  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /** A fresh secret, sealed for this workspace's row. */
  private sealedNew(workspaceId: string): string {
    return sealSecret(dataKeyOf(this.config), newSecret(), `checkout_settings:${workspaceId}`);
  }

  private open(workspaceId: string, sealed: string): string {
    return openSecret(dataKeyOf(this.config), sealed, `checkout_settings:${workspaceId}`);
  }

  async get(workspaceId: string, tx: EntityManager = this.db.manager): Promise<CheckoutSettingsView> {
    const rows: Array<Record<string, unknown>> = await tx.query(
      `SELECT ${this.sql.columns(CheckoutSettingsEntity)} FROM checkout_settings WHERE workspace_id = $1`,
      [workspaceId],
    );
    return viewOf(rows[0] && this.sql.hydrate(CheckoutSettingsEntity, rows[0]));
  }

  /** The brand the public reads carry (sessions, links, invoices, receipts); never `showReference`. */
  async branding(workspaceId: string): Promise<Branding & { displayName: string }> {
    const { showReference: _showReference, ...branding } = await this.publicBranding(workspaceId);
    return branding;
  }

  /** The brand the hosted pages show, and whether a session's reference is shown. */
  async publicBranding(workspaceId: string): Promise<PublicBranding> {
    const rows = await this.sql.rows<{ name: string } & Record<string, unknown>>(
      'checkout_public_branding',
      `SELECT w.name, ${this.sql.columns(CheckoutSettingsEntity, 's')}
       FROM workspaces w LEFT JOIN checkout_settings s ON s.workspace_id = w.id WHERE w.id = $1`,
      [workspaceId],
    );
    const row = rows[0];
    const view = viewOf(row?.workspace_id ? this.sql.hydrate(CheckoutSettingsEntity, row) : undefined);
    return {
      displayName: view.displayName ?? row?.name ?? '',
      logoUrl: view.logoUrl,
      accentColor: view.accentColor,
      supportEmail: view.supportEmail,
      supportUrl: view.supportUrl,
      showReference: view.showReference,
    };
  }

  /**
   * Partial update: only the fields sent change, `returnOrigins` replaces the whole list, `""`
   * clears a branding field. Every problem is named in one 400 and nothing is written then.
   */
  async put(workspaceId: string, body: PutCheckoutSettingsDto): Promise<CheckoutSettingsView> {
    const problems: string[] = [];
    const values = new Map<keyof PutCheckoutSettingsDto, unknown>();
    if (body.returnOrigins !== undefined) {
      const origins = body.returnOrigins;
      if (origins.length > MAX_RETURN_ORIGINS)
        problems.push(`returnOrigins must contain at most ${MAX_RETURN_ORIGINS} origins.`);
      const bad = origins.map(originProblem).filter((p): p is string => p !== null);
      problems.push(...bad);
      if (!bad.length) values.set('returnOrigins', [...new Set(origins.map((o) => new URL(o).origin))]);
    }
    for (const field of BRANDING_TEXT_FIELDS) {
      const value = body[field];
      if (value === undefined) continue;
      if (value === '') {
        values.set(field, null);
        continue;
      }
      const problem =
        field === 'logoUrl' || field === 'supportUrl'
          ? httpsUrlProblem(field, value)
          : field === 'accentColor'
            ? accentColorProblem(value)
            : null;
      if (problem) problems.push(problem);
      values.set(field, field === 'accentColor' ? value.toUpperCase() : value);
    }
    if (body.showReference !== undefined) values.set('showReference', body.showReference);
    if (problems.length) throw badRequest(problems);
    if (!values.size) return this.get(workspaceId);
    const fields = [...values.keys()];
    const columns = fields.map((f) => COLUMN[f]);
    await this.db.query(
      `INSERT INTO checkout_settings (workspace_id, ${columns.join(', ')}, updated_at)
       VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')}, now())
       ON CONFLICT (workspace_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
      [workspaceId, ...fields.map((f) => values.get(f))],
    );
    return this.get(workspaceId);
  }

  /** The secret, created if absent (spec: "created if absent"; concurrent callers get the same one). */
  async secret(workspaceId: string, tx: EntityManager = this.db.manager): Promise<string> {
    const rows: Array<{ checkout_secret_sealed: string }> = await tx.query(
      `INSERT INTO checkout_settings (workspace_id, checkout_secret_sealed) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO UPDATE
         SET checkout_secret_sealed = COALESCE(checkout_settings.checkout_secret_sealed, EXCLUDED.checkout_secret_sealed)
       RETURNING checkout_secret_sealed`,
      [workspaceId, this.sealedNew(workspaceId)],
    );
    this.secretKnown.add(workspaceId);
    return this.open(workspaceId, rows[0].checkout_secret_sealed);
  }

  /**
   * The secret a public read signs returns with: read only, so a buyer's poll never writes (every
   * session's workspace got its secret when the session was created); created only if, against
   * that, there is none.
   */
  async signingSecret(workspaceId: string): Promise<string> {
    const rows = await this.sql.rows<{ checkout_secret_sealed: string | null }>(
      'checkout_signing_secret',
      'SELECT checkout_secret_sealed FROM checkout_settings WHERE workspace_id = $1',
      [workspaceId],
    );
    const sealed = rows[0]?.checkout_secret_sealed;
    return sealed ? this.open(workspaceId, sealed) : this.secret(workspaceId);
  }

  /** spec: "It is created with the first session if none exists." */
  /** Whether ensureSecret has nothing to write for the workspace (its secret is known to this process). */
  knowsSecret(workspaceId: string): boolean {
    return this.secretKnown.has(workspaceId);
  }

  async ensureSecret(workspaceId: string, tx: EntityManager): Promise<void> {
    if (this.secretKnown.has(workspaceId)) return;
    await this.secret(workspaceId, tx);
  }

  /** Signed returns made with the old secret stop verifying at once. */
  async rotate(workspaceId: string): Promise<string> {
    const rows: Array<{ checkout_secret_sealed: string }> = await this.db.query(
      `INSERT INTO checkout_settings (workspace_id, checkout_secret_sealed) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO UPDATE SET checkout_secret_sealed = EXCLUDED.checkout_secret_sealed, updated_at = now()
       RETURNING checkout_secret_sealed`,
      [workspaceId, this.sealedNew(workspaceId)],
    );
    this.secretKnown.add(workspaceId);
    return this.open(workspaceId, rows[0].checkout_secret_sealed);
  }

  /**
   * Each return URL must be on a registered return origin (spec: Products › successUrl; Checkout
   * sessions › return URLs). Reads the origins once for all the fields given.
   */
  async assertOnReturnOrigins(
    workspaceId: string,
    urls: Record<string, string | null | undefined>,
    tx?: EntityManager,
  ): Promise<void> {
    const given = Object.entries(urls).filter((e): e is [string, string] => typeof e[1] === 'string');
    if (!given.length) return;
    const { returnOrigins } = await this.get(workspaceId, tx);
    const problems = given
      .filter(([, url]) => {
        const origin = originOf(url);
        return origin === null || !returnOrigins.includes(origin);
      })
      .map(([field, url]) => {
        const origin = originOf(url);
        return origin === null
          ? `${field} must be an absolute http(s) URL.`
          : `${field} must be on a registered return origin: ${origin} is not registered (PUT /v1/checkout/settings).`;
      });
    if (problems.length) throw badRequest(problems);
  }
}
