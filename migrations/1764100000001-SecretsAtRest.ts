import { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig, openSecret, sealSecret } from '@svc/config';

/**
 * Secrets at rest (issue 21 › 7; runtime contract › SVC_DATA_KEY): the webhook endpoint secrets
 * and the checkout secrets are stored sealed (AES-256-GCM under SVC_DATA_KEY), and an endpoint
 * keeps its previous secret, sealed, with its expiry while a rotation's overlap lasts (24 h).
 * Rows written before are sealed here. The key comes from the configuration of the process that
 * migrates (`svc migrate`, `npm start`: SVC_DATA_KEY or SVC_DATA_KEY_FILE, required in production;
 * `.svc/data-key` outside production); it is read only when there is a row to seal.
 */
export class SecretsAtRest1764100000001 implements MigrationInterface {
  name = 'SecretsAtRest1764100000001';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_endpoints" ADD "secret_sealed" character varying(256)`);
    await q.query(`ALTER TABLE "webhook_endpoints" ADD "previous_secret_sealed" character varying(256)`);
    await q.query(`ALTER TABLE "webhook_endpoints" ADD "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "checkout_secret_sealed" character varying(256)`);
    const endpoints: Array<{ id: string; secret: string }> = await q.query(
      `SELECT id, secret FROM webhook_endpoints ORDER BY id`,
    );
    const settings: Array<{ workspace_id: string; checkout_secret: string }> = await q.query(
      `SELECT workspace_id, checkout_secret FROM checkout_settings WHERE checkout_secret IS NOT NULL ORDER BY workspace_id`,
    );
    if (endpoints.length || settings.length) {
      const key = dataKey();
      for (const e of endpoints) {
        await q.query(`UPDATE webhook_endpoints SET secret_sealed = $2 WHERE id = $1`, [
          e.id,
          sealSecret(key, e.secret, `webhook_endpoint:${e.id}`),
        ]);
      }
      for (const s of settings) {
        await q.query(`UPDATE checkout_settings SET checkout_secret_sealed = $2 WHERE workspace_id = $1`, [
          s.workspace_id,
          sealSecret(key, s.checkout_secret, `checkout_settings:${s.workspace_id}`),
        ]);
      }
    }
    await q.query(`ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret_sealed" SET NOT NULL`);
    await q.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "secret"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "checkout_secret"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_endpoints" ADD "secret" character varying(128)`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "checkout_secret" character(64)`);
    const endpoints: Array<{ id: string; secret_sealed: string }> = await q.query(
      `SELECT id, secret_sealed FROM webhook_endpoints ORDER BY id`,
    );
    const settings: Array<{ workspace_id: string; checkout_secret_sealed: string }> = await q.query(
      `SELECT workspace_id, checkout_secret_sealed FROM checkout_settings WHERE checkout_secret_sealed IS NOT NULL ORDER BY workspace_id`,
    );
    if (endpoints.length || settings.length) {
      const key = dataKey();
      for (const e of endpoints) {
        await q.query(`UPDATE webhook_endpoints SET secret = $2 WHERE id = $1`, [
          e.id,
          openSecret(key, e.secret_sealed, `webhook_endpoint:${e.id}`),
        ]);
      }
      for (const s of settings) {
        await q.query(`UPDATE checkout_settings SET checkout_secret = $2 WHERE workspace_id = $1`, [
          s.workspace_id,
          openSecret(key, s.checkout_secret_sealed, `checkout_settings:${s.workspace_id}`),
        ]);
      }
    }
    await q.query(`ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret" SET NOT NULL`);
    await q.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_expires_at"`);
    await q.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_sealed"`);
    await q.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "secret_sealed"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "checkout_secret_sealed"`);
  }
}

/** SVC_DATA_KEY of the migrating process, through the one configuration reader. */
function dataKey(): Buffer {
  const key = loadConfig(undefined, { seed: false, dataKey: true }).dataKey;
  if (!key) throw new Error('SVC_DATA_KEY is needed to seal the stored secrets.');
  return key;
}
