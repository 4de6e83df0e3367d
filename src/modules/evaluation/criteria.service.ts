import { Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { LruCache } from '../../shared/domain/lru-cache';
import { IcpsService } from '../kb/icps/icp.resource';
import { PersonasService } from '../kb/personas/persona.resource';
import type { Subject } from '../pipeline/profile-judge';
import { readCriteria } from '../pipeline/profile-reading';
import { CriteriaReading, readDescription } from './criteria-reading';
import { draftBody } from './draft-body';

/** Readings kept: most are a few kilobytes, the largest (10,000 characters of criteria) about a hundred. */
const CACHED_READINGS = 200;

/**
 * How the default evaluator reads an ICP or Persona description, shown back: the stored one, or a
 * draft. Nothing is written. The same text always reads the same, so readings are kept by
 * subject and text, whichever workspace asked.
 */
@Injectable()
export class CriteriaService {
  private readonly readings = new LruCache<string, CriteriaReading>(CACHED_READINGS);

  constructor(
    private readonly icps: IcpsService,
    private readonly personas: PersonasService,
  ) {}

  /** The reading of a stored profile's description; another workspace's or a missing profile is 404 as on `GET`. */
  async stored(ctx: WorkspaceContext, subject: Subject, id: string): Promise<CriteriaReading> {
    const record = await (subject === 'icp' ? this.icps : this.personas).get(ctx, id);
    return this.read(subject, typeof record.description === 'string' ? record.description : '');
  }

  /** The reading of a draft `{description}`, validated as the KB validates a description. */
  draft(subject: Subject, body: unknown): CriteriaReading {
    return this.read(subject, draftBody(body).description);
  }

  read(subject: Subject, description: string): CriteriaReading {
    const key = `${subject}\u0000${description}`;
    const cached = this.readings.get(key);
    if (cached) return cached;
    const reading = readDescription(readCriteria, subject, description);
    this.readings.set(key, reading);
    return reading;
  }
}
