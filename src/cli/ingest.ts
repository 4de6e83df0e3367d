import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../shared/application/app-error';
import { WorkspaceContext } from '../shared/application/workspace-context';
import { ID_PREFIXES, parseId } from '../shared/domain/ids';
import { ProgressBar } from '../shared/infrastructure/progress-bar';
import { ActivitiesRepository } from '../modules/activities/activities.repository';
import { ActivitiesService } from '../modules/activities/activities.service';
import { MAX_ACTIVITIES } from '../modules/activities/activity-input';

export class IngestError extends Error {}

export interface IngestResult {
  workspace_id: string;
  accepted: number;
  duplicates: number;
  processed?: number;
  discarded?: number;
}

/**
 * Streams an NDJSON file of activities into the intake service, 1,000 lines at a time, so a file
 * of any size is never held in memory. Each batch is validated whole before it is stored; a bad
 * line stops the import with its line number (earlier batches stay accepted, as the output says).
 */
export async function ingestFile(
  service: ActivitiesService,
  repository: ActivitiesRepository,
  options: { workspace: string; file: string; wait: boolean; ctx: WorkspaceContext },
): Promise<IngestResult> {
  const size = statSync(options.file).size;
  const bar = new ProgressBar();
  const stream = createReadStream(options.file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const result: IngestResult = { workspace_id: options.workspace, accepted: 0, duplicates: 0 };
  let first: string | null = null;
  let last: string | null = null;
  let batch: unknown[] = [];
  let batchLines: number[] = [];
  let lineNumber = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    let answer;
    try {
      answer = await service.intake(options.ctx, { activities: batch });
    } catch (error) {
      if (error instanceof AppError && error.param) {
        const match = /^activities\[(\d+)\]\.?(.*)$/.exec(error.param);
        const line = match ? batchLines[Number(match[1])] : undefined;
        throw new IngestError(`line ${line ?? '?'}: ${error.message} (${result.accepted} activities from earlier lines were accepted)`);
      }
      throw error;
    }
    for (const item of answer.data) {
      if (item.status === 'queued') {
        result.accepted += 1;
        const id = parseId(ID_PREFIXES.activity, item.id);
        if (id.kind === 'ok') {
          first ??= id.value;
          last = id.value;
        }
      } else {
        result.duplicates += 1;
      }
    }
    batch = [];
    batchLines = [];
    bar.update('ingest', stream.bytesRead, size);
  };

  for await (const text of lines) {
    lineNumber += 1;
    if (text.trim() === '') continue;
    try {
      batch.push(JSON.parse(text));
    } catch {
      throw new IngestError(`line ${lineNumber}: not valid JSON (${result.accepted} activities from earlier lines were accepted)`);
    }
    batchLines.push(lineNumber);
    if (batch.length >= MAX_ACTIVITIES) await flush();
  }
  await flush();
  bar.update('ingest', size, size);

  if (options.wait && (first === null || last === null)) {
    result.processed = 0;
    result.discarded = 0;
  } else if (options.wait && first !== null && last !== null) {
    // Ids grow monotonically within this process, so [first, last] covers exactly this import.
    for (;;) {
      const progress = await repository.progress(options.ctx, first, last);
      bar.update('pipeline', progress.processed + progress.discarded, result.accepted);
      if (progress.pending === 0) {
        result.processed = progress.processed;
        result.discarded = progress.discarded;
        break;
      }
      await sleep(250);
    }
  }
  return result;
}
