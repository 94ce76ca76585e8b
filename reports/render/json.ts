import type { Renderer } from './renderer.js';

/** The result model as is: what CI gates, differential mode and dashboards read. */
export const jsonRenderer: Renderer = {
  format: 'json',
  fileName: 'conformance.json',
  render: (report) => JSON.stringify(report, null, 2) + '\n',
};
