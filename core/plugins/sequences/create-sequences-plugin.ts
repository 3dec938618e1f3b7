import type { Plugin } from '../plugin.ts';
import type { ToolApi } from '../../tools/tool-api.ts';
import type { ToolDefinition } from '../../tools/tool-definition.ts';
import { ToolError } from '../../tools/tool-error.ts';
import type { SequenceStore } from './sequence-store.ts';
import type { Sequence } from './sequence-schema.ts';
import { validateSequence } from './validate-sequence.ts';
import {
  checkSequenceGraph,
  DEFAULT_MAX_CALL_DEPTH,
  sequenceTargets,
  type SequenceGraphProblem,
} from './check-sequence-graph.ts';
import { runSequence } from './run-sequence.ts';
import { sequencesPromptSection } from './sequences-prompt-section.ts';
import { DEFAULT_SEQUENCE_BUDGET, type SequenceBudget } from './sequence-budget.ts';
import { budgetStopError } from './budget-stop-error.ts';

export interface SequencesPluginOptions {
  store: SequenceStore;
  /** The live ToolAPI (a function: the tool table changes between turns). */
  toolApi: () => ToolApi;
  /** `sequence:` hops allowed in a chain (default 4). */
  maxCallDepth?: number;
  /**
   * What one run may spend, nested runs included (DEFAULT_SEQUENCE_BUDGET for unset fields); a
   * function is read at every turn's tool list and every run, so a settings change applies to the
   * next turn. `seq_run`'s own timeout is a little longer than the wall time.
   */
  budget?: Partial<SequenceBudget> | (() => Partial<SequenceBudget>);
}

const nameParameter = {
  name: { type: 'string' as const, description: 'The sequence name (lower-case words joined by _).' },
};

function notFound(name: string): ToolError {
  return new ToolError({
    reason: 'not_found',
    field: 'name',
    detail: `There is no sequence named '${name}'.`,
    hint: 'Call seq_list to see the saved sequences.',
  });
}

function graphReport(problems: SequenceGraphProblem[]): { ok: boolean; problems: SequenceGraphProblem[] } {
  return { ok: problems.length === 0, problems };
}

/**
 * The sequences plugin: six `seq_*` tools over a SequenceStore, running through the ToolAPI
 * (so every call inside a sequence passes the kernel's CanUse gate with caller `sequences`).
 */
export function createSequencesPlugin(options: SequencesPluginOptions): Plugin {
  const maxCallDepth = options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH;
  const budgetNow = (): SequenceBudget => ({
    ...DEFAULT_SEQUENCE_BUDGET,
    ...(typeof options.budget === 'function' ? options.budget() : options.budget),
  });
  const { store } = options;

  const save: ToolDefinition = {
    name: 'seq_save',
    description:
      'Create or replace a sequence: { name, description, groups: [{ id, calls: [{ tool | sequence, args?, slot?, when? }] }] }. Groups run in order, calls in a group in parallel; args read earlier slots as {"$slot": "slot.result.field"}.',
    parameters: {
      type: 'object',
      properties: {
        ...nameParameter,
        description: { type: 'string', description: 'What the sequence does.' },
        groups: { type: 'array', description: 'The groups, in the order they run.', items: { type: 'object' } },
      },
      required: ['name', 'description', 'groups'],
    },
    handler: async (args) => {
      const tools = options.toolApi();
      const checked = validateSequence(args, { describeTool: (name) => tools.byName(name) });
      if (!checked.ok) {
        const [first] = checked.problems;
        throw new ToolError({
          reason: first?.reason ?? 'type',
          ...(first ? { field: first.field } : {}),
          detail: checked.problems.map((problem) => problem.detail).join('; '),
          hint: 'Fix the named fields and call seq_save again.',
        });
      }
      const sequence = checked.sequence;
      const replaced = (await store.get(sequence.name)) !== undefined;
      await store.save(sequence);
      // Unknown tools and missing targets are allowed at save (they may appear later); say so.
      const unknownTools = [
        ...new Set(
          sequence.groups.flatMap((group) =>
            group.calls.flatMap((call) => (call.tool !== undefined && !tools.byName(call.tool) ? [call.tool] : [])),
          ),
        ),
      ];
      const graph = checkSequenceGraph({ from: sequence.name, sequences: await store.list(), maxCallDepth });
      return {
        saved: sequence.name,
        replaced,
        ...(unknownTools.length > 0 ? { unknown_tools: unknownTools } : {}),
        ...(graph.length > 0 ? { graph_problems: graph.map((problem) => problem.message) } : {}),
      };
    },
  };

  const list: ToolDefinition = {
    name: 'seq_list',
    description: 'List the saved sequences with their descriptions and the sequences each calls.',
    parameters: { type: 'object', properties: {} },
    parallelSafe: true,
    readOnly: true,
    handler: async () => ({
      sequences: (await store.list()).map((sequence) => ({
        name: sequence.name,
        description: sequence.description,
        groups: sequence.groups.length,
        calls: sequence.groups.reduce((count, group) => count + group.calls.length, 0),
        calls_sequences: sequenceTargets(sequence),
      })),
    }),
  };

  const show: ToolDefinition = {
    name: 'seq_show',
    description: 'Show one saved sequence in full.',
    parameters: { type: 'object', properties: nameParameter, required: ['name'] },
    parallelSafe: true,
    readOnly: true,
    handler: async (args) => (await store.get(String(args.name))) ?? notFound(String(args.name)),
  };

  const remove: ToolDefinition = {
    name: 'seq_delete',
    description: 'Delete a saved sequence. Sequences that call it keep their calls; seq_check will report them.',
    parameters: { type: 'object', properties: nameParameter, required: ['name'] },
    handler: async (args) => {
      const name = String(args.name);
      if (!(await store.delete(name))) return notFound(name);
      const calledBy = (await store.list())
        .filter((sequence) => sequenceTargets(sequence).includes(name))
        .map((sequence) => sequence.name);
      return { deleted: name, called_by: calledBy };
    },
  };

  const check: ToolDefinition = {
    name: 'seq_check',
    description: `Check the calls between sequences: missing targets, cycles, chains deeper than ${maxCallDepth}. Without a name, checks every sequence.`,
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'One sequence to check from (optional).' } },
    },
    parallelSafe: true,
    readOnly: true,
    handler: async (args) => {
      const sequences = await store.list();
      const problems = checkSequenceGraph({
        ...(typeof args.name === 'string' ? { from: args.name } : {}),
        sequences,
        maxCallDepth,
      });
      return graphReport(problems);
    },
  };

  const run = (budget: SequenceBudget): ToolDefinition => ({
    name: 'seq_run',
    description:
      'Run a saved sequence and return its report (every call with ok / failed / skipped / refused). Not allowed inside a sequence.',
    parameters: {
      type: 'object',
      properties: {
        ...nameParameter,
        input: { type: 'object', description: 'What the sequence reads as its "input" slot (optional).' },
      },
      required: ['name'],
    },
    serial: true,
    // Sent once a call inside may have acted: a run stopped before that is known not_sent, not unknown.
    reportsDelivery: true,
    timeoutMs: budget.wallTimeMs + 5_000,
    handler: async (args, context) => {
      const name = String(args.name);
      const sequences = await store.list();
      const sequence: Sequence | undefined = sequences.find((item) => item.name === name);
      if (!sequence) return notFound(name);
      const problems = checkSequenceGraph({ from: name, sequences, maxCallDepth });
      if (problems.length > 0) {
        return new ToolError({
          reason: 'failed',
          detail: `the sequence ${name} cannot run: ${problems.map((problem) => problem.message).join('; ')}`,
          hint: 'Fix the sequences (seq_save) and call seq_check.',
        });
      }
      const report = await runSequence({
        sequence,
        toolApi: options.toolApi(),
        loadSequence: (target) => store.get(target),
        conversationId: context.conversationId,
        turnId: context.turnId,
        signal: context.signal,
        input: (args.input as Record<string, unknown> | undefined) ?? {},
        budget,
        maxCallDepth,
        onLeave: () => context.markSent(),
      });
      // A run its budget stopped is a failure the person sees, not a report that merely says ok: false.
      return budgetStopError(report) ?? report;
    },
  });

  return {
    name: 'sequences',
    description: 'Saved tool programs: groups in order, calls in a group in parallel, named slots and conditions.',
    tools: () => [save, list, show, remove, check, run(budgetNow())],
    promptSections: () => [sequencesPromptSection({ maxCallDepth, budget: budgetNow() })],
  };
}
