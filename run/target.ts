import type { Target, TargetSetting } from '../lib/config.js';
import { EmulatorControl } from '../lib/client/control.js';
import { probe } from './supervise.js';
import { TargetUnreachableError } from '../lib/errors.js';

/**
 * A deployment, resolved once for the run: asked whether the emulator's control surface answers
 * there. `reachable` first requires any HTTP answer (a run stops with exit 2 when there is
 * none; preflight reports it as a failed check instead).
 */
export async function resolveDeployment(setting: TargetSetting & { kind: 'remote' }, options: { reachable?: boolean } = {}): Promise<Target & { kind: 'remote' }> {
  if (options.reachable) {
    const why = await probe(setting.baseUrl, 10_000);
    if (why) throw new TargetUnreachableError(setting.baseUrl, why);
  }
  return { ...setting, control: (await EmulatorControl.detect(setting.baseUrl)) !== undefined };
}
