import { existsSync, readFileSync } from 'node:fs';
import { runConfig } from './run-config.js';

/** What the run provisioned from its worker image (run/provision/worker.ts), as its workers read it. */
export interface Provisioned {
  endpointId?: string;
  /** The workersMax 1 endpoint that holds jobs in its queue behind a long one. */
  holdEndpointId?: string;
  templateId?: string;
  /** Why provisioning made nothing (the tests that needed it skip with it). */
  error?: string;
}

let read: { file: string; value: Provisioned } | undefined;

/** The run's provisioned ids (none when nothing was provisioned); read once per process. */
export function provisioned(): Provisioned {
  const file = runConfig().provisionFile;
  if (!file) return {};
  if (read?.file === file) return read.value;
  const value = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Provisioned : {};
  read = { file, value };
  return value;
}
