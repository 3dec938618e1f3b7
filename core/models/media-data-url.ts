import type { ToolMedia } from '../tools/tool-definition.ts';

/** A `data:` URL for media, as OpenAI-style image parts want it. */
export function mediaDataUrl(media: ToolMedia): string {
  return `data:${media.mimeType};base64,${media.data}`;
}
