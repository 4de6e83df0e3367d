import { Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { normalizeEmail, normalizeLinkedinProfile, domainOf } from '../../shared/domain/identity';
import { DirectoryPerson, DirectoryRepository } from './directory.repository';

const BATCH = 1000;

export class DirectoryImportError extends Error {}

async function* ndjsonLines(path: string): AsyncGenerator<{ line: number; value: Record<string, unknown> }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new DirectoryImportError(`${path}:${number}: not valid JSON`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new DirectoryImportError(`${path}:${number}: not a JSON object`);
    }
    yield { line: number, value: value as Record<string, unknown> };
  }
}

/**
 * Loads the enrichment directory from NDJSON, streaming: companies are `company_info`-shaped
 * objects with a `domain` (or `website`); people are `contact_info`-shaped objects with an email
 * (`email` or `email.work`), optionally `linkedin` and `company_domain`.
 */
@Injectable()
export class DirectoryImportService {
  constructor(private readonly directory: DirectoryRepository) {}

  async importCompanies(path: string, onProgress: (count: number) => void = () => undefined): Promise<number> {
    let batch: Array<{ domain: string; data: Record<string, unknown> }> = [];
    let total = 0;
    for await (const { line, value } of ndjsonLines(path)) {
      const domain = domainOf(typeof value.domain === 'string' ? value.domain : typeof value.website === 'string' ? value.website : '');
      if (!domain) throw new DirectoryImportError(`${path}:${line}: a company needs a domain or website`);
      const { domain: _domain, ...data } = value;
      batch.push({ domain, data: { website: `https://${domain}`, ...data } });
      if (batch.length >= BATCH) {
        total += await this.directory.upsertCompanies(batch);
        batch = [];
        onProgress(total);
      }
    }
    total += await this.directory.upsertCompanies(batch);
    onProgress(total);
    return total;
  }

  async importPeople(path: string, onProgress: (count: number) => void = () => undefined): Promise<number> {
    let batch: DirectoryPerson[] = [];
    let total = 0;
    for await (const { line, value } of ndjsonLines(path)) {
      const emailField = value.email;
      const email = normalizeEmail(
        typeof emailField === 'string'
          ? emailField
          : typeof (emailField as { work?: unknown })?.work === 'string'
            ? (emailField as { work: string }).work
            : '',
      );
      if (!email) throw new DirectoryImportError(`${path}:${line}: a person needs a valid email`);
      const social = (value.social ?? {}) as { linkedin?: unknown };
      const linkedinText = typeof value.linkedin === 'string' ? value.linkedin : typeof social.linkedin === 'string' ? social.linkedin : '';
      const linkedin = normalizeLinkedinProfile(linkedinText);
      const companyDomain = domainOf(typeof value.company_domain === 'string' ? value.company_domain : '') || null;
      const { email: _email, linkedin: _linkedin, company_domain: _company, ...rest } = value;
      const data = {
        ...rest,
        email: { work: email, is_valid: true },
        social: {
          ...(typeof rest.social === 'object' && rest.social ? rest.social : {}),
          ...(linkedin ? { linkedin: `https://www.${linkedin}` } : {}),
        },
      };
      batch.push({ email, linkedin, company_domain: companyDomain, data });
      if (batch.length >= BATCH) {
        total += await this.directory.upsertPeople(batch);
        batch = [];
        onProgress(total);
      }
    }
    total += await this.directory.upsertPeople(batch);
    onProgress(total);
    return total;
  }
}
