import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalizeUrl } from '../../shared/domain/canonical-url';

/**
 * Target Pages' and Target Forms' canonical URLs in the form visits now take (ADR 0065): an
 * internationalised host as its ASCII name, characters outside ASCII percent-encoded. Only rows
 * whose URL has such characters can change.
 */
export class CanonicalUrlsInAscii1765152000000 implements MigrationInterface {
  name = 'CanonicalUrlsInAscii1765152000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['target_pages', 'target_forms']) {
      const rows = (await queryRunner.query(
        `SELECT workspace_id::text, id::text, url, canonical_url FROM ${table} WHERE url ~ '[^\\x01-\\x7f]'`,
      )) as Array<{ workspace_id: string; id: string; url: string; canonical_url: string }>;
      for (const row of rows) {
        const canonical = canonicalizeUrl(row.url)?.canonical;
        if (!canonical || canonical === row.canonical_url) continue;
        await queryRunner.query(`UPDATE ${table} SET canonical_url = $3 WHERE workspace_id = $1 AND id = $2`, [
          row.workspace_id,
          row.id,
          canonical,
        ]);
      }
    }
  }

  async down(): Promise<void> {
    // The earlier form is not kept; both forms name the same pages.
  }
}
