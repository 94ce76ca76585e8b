import { fail } from '../http/reply.js';
import { templatesSlice, templateUsages } from '../state/templates.js';
import type { Account, World } from '../world.js';
import { podsSlice } from './store.js';
import { conflict } from './validation.js';

/**
 * The template a pod is created from or moved to (live field `templateId`, platform-notes):
 * one of the caller's templates, else 404 ("404 (unknown `templateId`)"); a serverless template
 * runs endpoints, not pods (400). Creating or moving a pod is a use of the template.
 */
export function podTemplate(world: World, account: Account, templateId: string, pointer: string): string {
  const templates = world.get(templatesSlice);
  const template = templates.get(templateId, account.id);
  if (!template) fail('not-found', `No template "${templateId}" exists for this account.`);
  if (template!.isServerless) throw conflict(pointer, `template "${templateId}" is a serverless template; pods need a pod template`);
  templates.touch(templateId);
  return templateId;
}

// Pods that name a template are its users: the spec's deletion rule ("only when no pod or
// serverless endpoint uses it") then holds for pods too. A terminated pod uses nothing.
templateUsages.push((world, templateId) => world.get(podsSlice).usingTemplate(templateId));
