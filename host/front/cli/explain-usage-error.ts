import { closestWord } from './closest-word.ts';
import { formatUsage, optionNames, type CommandHelp } from '../command-line/command-help.ts';

/**
 * Pure: what a command prints after a wrong command line: the problem in words (Node's parser
 * messages rewritten, with "did you mean" for a near miss), then that command's usage and where
 * its full help is — never every command's usage.
 */
export function explainUsageError(help: CommandHelp, error: unknown): string {
  return `home-agent ${help.name}: ${describeProblem(help, error)}\n\n${formatUsage(help)}`;
}

function describeProblem(help: CommandHelp, error: unknown): string {
  const code = (error as { code?: string })?.code;
  const message = (error as Error)?.message ?? String(error);
  const option = /'(-{1,2}[\w-]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const suggestion = closestWord(option, optionNames(help));
    return `unknown option ${option}.${suggestion ? ` Did you mean ${suggestion}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return /argument missing/.test(message) ? `${option} needs a value.` : `${option} takes no value.`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']+)'/.exec(message)?.[1];
    return `unexpected argument${word ? ` '${word}'` : ''}.`;
  }
  return message;
}
