import { z } from 'zod';

/** Media attached to a tool result (an image from a camera, say); it follows its own tool message. */
export const toolMediaSchema = z.object({ mimeType: z.string(), data: z.string().describe('Base64 data.') });
export type ToolMedia = z.infer<typeof toolMediaSchema>;
