/** Which actions of a device the agent may use: every one, or the listed action names (`[]` = none). */
export type DeviceGrant = 'all' | readonly string[];

/** Whether `grant` lets the agent use `action`. */
export function grantAllows(grant: DeviceGrant, action: string): boolean {
  return grant === 'all' || grant.includes(action);
}
