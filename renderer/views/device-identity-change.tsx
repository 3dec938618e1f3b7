import { useId } from 'react';
import type { DeviceSummary } from '../../host/contract/api-contract.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { IdentityList } from './shown-device.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * A paired device that now answers with another identity: the one paired beside the one it says
 * now (changed fields marked), and "Trust the new identity". Until then the agent cannot use it.
 */
export function DeviceIdentityChange(props: { device: DeviceSummary }) {
  const { device } = props;
  const change = device.identityChange;
  const pending = useAppStore((state) => state.deviceChanges[device.id]?.pending !== undefined);
  const trustNewIdentity = useAppStore((state) => state.trustNewIdentity);
  const ids = useId();
  if (!change) return null;
  return (
    <div
      className="identity-change"
      role="group"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-why`}
      data-testid="identity-change"
    >
      <p className="identity-change-title" id={`${ids}-title`}>
        {device.alias} answers as another device
      </p>
      <p className="identity-change-why" id={`${ids}-why`}>
        The agent cannot use it until you trust what it says now; its allowed actions stay.
      </p>
      <div className="identity-compare">
        <div>
          <p className="identity-compare-title">Paired as</p>
          <IdentityList identity={change.trusted} testId="identity-trusted" />
        </div>
        <div>
          <p className="identity-compare-title">Says now</p>
          <IdentityList identity={change.current} differsFrom={change.trusted} testId="identity-current" />
        </div>
      </div>
      <AriaDisabledButton
        className="button button-small button-primary"
        data-testid="trust-identity"
        unavailable={pending}
        onPress={() => void trustNewIdentity(device.id, change.current)}
      >
        Trust the new identity
      </AriaDisabledButton>
    </div>
  );
}
