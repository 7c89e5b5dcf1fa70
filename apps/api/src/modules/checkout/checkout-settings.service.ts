import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { originOf, originProblem } from '@svc/domain';
import { dataKeyOf, openSecret, sealSecret } from '@svc/config';
import { badRequest, SqlService, SVC_CONFIG, SvcConfig } from '@svc/core';

export interface CheckoutSettingsView {
  returnOrigins: string[];
  checkoutSecretSet: boolean;
}

export const MAX_RETURN_ORIGINS = 20;
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
    const rows: Array<{ return_origins: string[]; checkout_secret_sealed: string | null }> = await tx.query(
      `SELECT return_origins, checkout_secret_sealed FROM checkout_settings WHERE workspace_id = $1`,
      [workspaceId],
    );
    return { returnOrigins: rows[0]?.return_origins ?? [], checkoutSecretSet: !!rows[0]?.checkout_secret_sealed };
  }

  async putReturnOrigins(workspaceId: string, origins: string[]): Promise<CheckoutSettingsView> {
    if (origins.length > MAX_RETURN_ORIGINS)
      throw badRequest(`returnOrigins must contain at most ${MAX_RETURN_ORIGINS} origins.`);
    const problems = origins.map(originProblem).filter((p): p is string => p !== null);
    if (problems.length) throw badRequest(problems);
    const normalized = [...new Set(origins.map((o) => new URL(o).origin))];
    await this.db.query(
      `INSERT INTO checkout_settings (workspace_id, return_origins, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (workspace_id) DO UPDATE SET return_origins = EXCLUDED.return_origins, updated_at = now()`,
      [workspaceId, normalized],
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
