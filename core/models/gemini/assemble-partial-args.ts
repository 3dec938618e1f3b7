import type { PartialArg } from './gemini-chunk-schema.ts';

type PathStep = string | number;

/** `$.a.b[0]['c d']` → ['a', 'b', 0, 'c d']; undefined when the path is not of that form. */
export function parseJsonPath(path: string): PathStep[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: PathStep[] = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(path);
    if (!match || match.index !== start) return undefined;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
  }
  return steps;
}

/**
 * Builds a call's arguments from Vertex `partialArgs`: each piece sets the value at its JSON path,
 * creating objects and arrays on the way; a string piece after one marked `willContinue` at the
 * same path is appended. Returns false for a path it cannot read.
 */
export class PartialArgsAssembler {
  readonly args: Record<string, unknown> = {};
  private continuingPath: string | undefined;

  apply(piece: PartialArg): boolean {
    const steps = parseJsonPath(piece.jsonPath);
    if (!steps || steps.length === 0) return false;
    const value = pieceValue(piece);
    const append = typeof value === 'string' && this.continuingPath === piece.jsonPath;
    this.continuingPath = piece.willContinue ? piece.jsonPath : undefined;
    let container: Record<string | number, unknown> = this.args;
    for (let i = 0; i < steps.length - 1; i++) {
      const step = steps[i] as PathStep;
      const nextIsIndex = typeof steps[i + 1] === 'number';
      const existing = container[step];
      if (typeof existing !== 'object' || existing === null) container[step] = nextIsIndex ? [] : {};
      container = container[step] as Record<string | number, unknown>;
    }
    const last = steps[steps.length - 1] as PathStep;
    const previous = container[last];
    container[last] = append && typeof previous === 'string' ? previous + (value as string) : value;
    return true;
  }
}

function pieceValue(piece: PartialArg): unknown {
  if (piece.stringValue !== undefined && piece.stringValue !== null) return piece.stringValue;
  if (piece.numberValue !== undefined && piece.numberValue !== null) return piece.numberValue;
  if (piece.boolValue !== undefined && piece.boolValue !== null) return piece.boolValue;
  return null;
}
