import type { ContextKeeper } from '../../core/context/context-keeper.ts';
import { formatTokens } from '../../core/context/context-too-small.ts';
import { tokensOf } from '../../core/context/request-bytes.ts';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import type { Plugin } from '../../core/plugins/plugin.ts';
import { utf8Length } from '../../core/text/utf8-length.ts';
import type { Settings } from '../contract/settings-table.ts';

/** How many plugins the warning names. */
const NAMED = 3;

/**
 * A warning for the person when the tool declarations of the enabled plugins take over half of
 * the model's context window (little is left for the conversation; a request may not fit at all),
 * naming the largest plugins with their share; undefined when they take less, or when the window
 * is not known. The declarations are counted as requests send them.
 */
export async function toolContextWarning(options: {
  plugins: readonly Plugin[];
  model: ModelAdapter;
  context: ContextKeeper;
  settings: Settings;
  signal: AbortSignal;
}): Promise<string | undefined> {
  const budget = await options.context.budget(options.model, options.settings, options.signal);
  if (budget.windowTokens === undefined) return undefined;
  const sizes = options.plugins
    .map((plugin) => {
      const declared = plugin
        .tools()
        .map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
      return {
        name: plugin.name,
        tokens: declared.length === 0 ? 0 : tokensOf(utf8Length(JSON.stringify(declared)), budget.bytesPerToken),
      };
    })
    .filter((size) => size.tokens > 0)
    .sort((left, right) => right.tokens - left.tokens || (left.name < right.name ? -1 : 1));
  const total = sizes.reduce((sum, size) => sum + size.tokens, 0);
  if (total * 2 <= budget.windowTokens) return undefined;
  const largest = sizes
    .slice(0, NAMED)
    .map((size) => `${size.name} (${formatTokens(size.tokens)})`)
    .join(', ');
  return (
    `The tool declarations of the enabled plugins take about ${formatTokens(total)} of the ` +
    `${formatTokens(budget.windowTokens)} tokens of ${options.model.label}'s context window — more than half, ` +
    `so little is left for the conversation. The largest: ${largest}. Disable plugins you do not need, or choose a ` +
    `model with a larger window.`
  );
}
