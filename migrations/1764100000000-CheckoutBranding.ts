import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merchant's brand on the hosted pages (issue 24, docs/pages.md › Branding): display name,
 * logo URL (https), accent colour (#RRGGBB), support e-mail and URL, all nullable (unset), and
 * whether the pages show the session's reference (default false).
 */
export class CheckoutBranding1764100000000 implements MigrationInterface {
  name = 'CheckoutBranding1764100000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_settings" ADD "display_name" text`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "logo_url" text`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "accent_color" character(7)`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "support_email" text`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "support_url" text`);
    await q.query(`ALTER TABLE "checkout_settings" ADD "show_reference" boolean NOT NULL DEFAULT false`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "show_reference"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "support_url"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "support_email"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "accent_color"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "logo_url"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP COLUMN "display_name"`);
  }
}
