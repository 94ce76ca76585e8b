import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import type { RealEndpoint } from '../real.js';
import { advanceTogether } from '../lockstep.js';

/** Lets the workers progress to the next moment a job attempt ends, exactly (boundary instants). */
export class ProgressCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  check(model: Readonly<JobModel>): boolean {
    return model.nextEvent() !== undefined;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    await advanceTogether(model, real, model.nextEvent()!);
  }

  toString(): string {
    return 'progress()';
  }
}
