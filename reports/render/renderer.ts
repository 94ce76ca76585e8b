import type { ConformanceReport } from '../model.js';

/** One output format of the report; every renderer reads the same model. */
export interface Renderer {
  format: string;
  fileName: string;
  render(report: ConformanceReport): string;
}
