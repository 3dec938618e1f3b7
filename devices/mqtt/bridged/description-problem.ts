import { canonicalJson } from '../../../core/agent/canonical-json.ts';
import { compareDeclarations } from '../../protocol/compare-declarations.ts';
import type { HelloResult } from '../../protocol/frame-schema.ts';

/**
 * What an unsigned bridged description says otherwise than the hello its bridge signs
 * (`set: no longer asks you before each use`, `another identity`), or undefined when they agree in
 * every field (key order aside).
 */
export function descriptionProblem(options: { announced: HelloResult; signed: HelloResult }): string | undefined {
  const { announced, signed } = options;
  if (canonicalJson(announced) === canonicalJson(signed)) return undefined;
  const identity =
    canonicalJson(announced.device) === canonicalJson(signed.device)
      ? []
      : [`it names another identity (${announced.device.model} ${announced.device.firmware}) than the signed one`];
  const tools = compareDeclarations(signed.tools, announced.tools).differences.map((difference) => difference.detail);
  const found = [...identity, ...tools];
  return found.length > 0 ? found.join('; ') : 'it differs in how requests are taken (concurrent, frame size)';
}
