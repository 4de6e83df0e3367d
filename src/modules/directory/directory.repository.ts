import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource } from 'typeorm';
import { hemsOf } from '../../shared/domain/identity';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';
import { turnBatching } from '../../shared/infrastructure/turn-batching';

interface Lookup {
  email: string | null;
  companyDomains: readonly string[];
}

type Found = { person: DirectoryPerson | null; company: Record<string, unknown> | null };

export interface DirectoryPerson {
  email: string;
  linkedin: string | null;
  company_domain: string | null;
  data: Record<string, unknown>;
}

/**
 * The enrichment directory: people and companies shared by all workspaces (reference data
 * imported by the operations CLI, not tenant data).
 */
@Injectable()
export class DirectoryRepository {
  /**
   * Lookups made in the same turn of the event loop (the Enrich jobs a worker runs side by side)
   * go out as one statement; nothing is cached, since imports change the directory.
   */
  private readonly lookups = new DataLoader<Lookup, Found>((keys) => this.lookUp(keys), turnBatching());

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The person with this email (if any) and the first of the candidate company domains the
   * directory has, trying the person's own company domain first.
   */
  personAndCompany(email: string | null, companyDomains: readonly string[]): Promise<Found> {
    return this.lookups.load({ email, companyDomains });
  }

  private async lookUp(keys: readonly Lookup[]): Promise<Found[]> {
    const { rows } = await preparedQuery<Found & { i: number }>(
      this.dataSource.manager,
      `SELECT k.i,
              (SELECT row_to_json(p) FROM (SELECT email, linkedin, company_domain, data FROM directory_people WHERE email = k.email) p) AS person,
              (SELECT c.data
                 FROM unnest(ARRAY[(SELECT company_domain FROM directory_people WHERE email = k.email)]
                             || ARRAY(SELECT json_array_elements_text(k.domains::json))) WITH ORDINALITY AS d (domain, ord)
                 JOIN directory_companies c ON c.domain = d.domain
                WHERE d.domain <> ''
                ORDER BY d.ord LIMIT 1) AS company
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k (email, domains, i)`,
      [keys.map((key) => key.email), keys.map((key) => JSON.stringify(key.companyDomains))],
    );
    const byIndex = new Map(rows.map((row) => [Number(row.i), row]));
    return keys.map((_, index) => {
      const row = byIndex.get(index + 1);
      return { person: row?.person ?? null, company: row?.company ?? null };
    });
  }

  /** The email the directory knows for a LinkedIn profile (`linkedin.com/in/<slug>`) or hashed email. */
  async emailFor(lookup: { linkedin?: string | null; hem?: { type: string; value: string } | null }): Promise<string | null> {
    if (lookup.linkedin) {
      const rows: Array<{ email: string }> = await this.dataSource.query('SELECT email FROM directory_people WHERE linkedin = $1 LIMIT 1', [
        lookup.linkedin,
      ]);
      if (rows[0]) return rows[0].email;
    }
    if (lookup.hem && ['sha256', 'sha1', 'md5'].includes(lookup.hem.type)) {
      const rows: Array<{ email: string }> = await this.dataSource.query(
        `SELECT email FROM directory_people WHERE email_${lookup.hem.type} = $1 LIMIT 1`,
        [lookup.hem.value],
      );
      if (rows[0]) return rows[0].email;
    }
    return null;
  }

  async upsertCompanies(companies: ReadonlyArray<{ domain: string; data: Record<string, unknown> }>): Promise<number> {
    if (companies.length === 0) return 0;
    await this.dataSource.query(
      `INSERT INTO directory_companies (domain, data, updated_at)
       SELECT d, x::json, now() FROM unnest($1::text[], $2::text[]) AS u (d, x)
       ON CONFLICT (domain) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [companies.map((c) => c.domain), companies.map((c) => JSON.stringify(c.data))],
    );
    return companies.length;
  }

  async upsertPeople(people: ReadonlyArray<DirectoryPerson>): Promise<number> {
    if (people.length === 0) return 0;
    const hashes = people.map((p) => hemsOf(p.email));
    await this.dataSource.query(
      `INSERT INTO directory_people (email, email_sha256, email_sha1, email_md5, linkedin, company_domain, data, updated_at)
       SELECT e, s256, s1, m5, li, cd, x::json, now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u (e, s256, s1, m5, li, cd, x)
       ON CONFLICT (email) DO UPDATE SET linkedin = EXCLUDED.linkedin, company_domain = EXCLUDED.company_domain,
                                         data = EXCLUDED.data, updated_at = now()`,
      [
        people.map((p) => p.email),
        hashes.map((h) => h[0].value),
        hashes.map((h) => h[1].value),
        hashes.map((h) => h[2].value),
        people.map((p) => p.linkedin),
        people.map((p) => p.company_domain),
        people.map((p) => JSON.stringify(p.data)),
      ],
    );
    return people.length;
  }
}
