/** Model replies one turn may take while the setting maxSteps is unset. */
export const DEFAULT_MAX_STEPS = 8;

/** Whether complete calls start while the reply streams, while the setting earlyToolStart is unset. */
export const DEFAULT_EARLY_TOOL_START: 'on' | 'off' = 'on';
