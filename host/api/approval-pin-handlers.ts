import type { PinAction } from '../contract/approval-pin-contract.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/**
 * The approval PIN's methods: whether one is set, setting, changing and removing it (the PIN is
 * checked here and never answered back), and which actions of a device need it.
 */
export function approvalPinHandlers(
  parts: HostParts,
): ApiHandlersOf<'pin/status' | 'pin/set' | 'pin/remove' | 'devices/pin-actions' | 'devices/pin'> {
  const pin = parts.approvalPin;
  return {
    'pin/status': () => ({ set: pin.isSet() }),
    'pin/set': (input) => {
      const done = pin.set({
        pin: input.pin,
        ...(input.currentPin !== undefined ? { currentPin: input.currentPin } : {}),
      });
      return done.ok ? { changed: true } : { changed: false, message: done.message };
    },
    'pin/remove': (input) => {
      const done = pin.remove(input.currentPin);
      return done.ok ? { changed: true } : { changed: false, message: done.message };
    },
    'devices/pin-actions': (input) => ({ actions: pinActionsOf(parts, input.deviceId) }),
    'devices/pin': (input) => {
      const actions = pinActionsOf(parts, input.deviceId);
      if (!actions.some((action) => action.name === input.action))
        throw new ApiError(
          404,
          `${input.deviceId} has no action "${input.action}": its actions are ${actions.map((action) => action.name).join(', ') || 'none'}.`,
        );
      pin.marks.setMark({ deviceId: input.deviceId, action: input.action, needsPin: input.needsPin });
      return { actions: pinActionsOf(parts, input.deviceId) };
    },
  };
}

/** Each action of a known device and whether it needs the PIN; ApiError 404 for a device nobody knows. */
function pinActionsOf(parts: HostParts, deviceId: string): PinAction[] {
  const device = parts.devices?.list().find((summary) => summary.id === deviceId);
  if (device === undefined)
    throw new ApiError(
      404,
      `No device "${deviceId}" is paired or attached: list them with \`home-agent devices list\`.`,
    );
  const actions = device.actions ?? device.tools.map((name) => ({ name, readOnly: false }));
  const marks = new Map(parts.approvalPin.marks.marksOf(deviceId).map((mark) => [mark.action, mark.needsPin]));
  return actions.map((action) => ({
    name: action.name,
    needsPin: parts.approvalPin.actionNeedsPin({
      deviceId,
      kind: device.kind,
      action: action.name,
      readOnly: action.readOnly === true,
    }),
    marked: marks.has(action.name),
  }));
}
