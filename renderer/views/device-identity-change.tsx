import { useId } from 'react';
import type { DeviceSummary } from '../../host/contract/api-contract.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { IdentityList } from './shown-device.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * A paired device that now answers with another identity, or declares otherwise than what was
 * pinned at pairing: the one paired beside the one it says now (changed fields marked), what it
 * declares differently (which action, which flag, which schema), and "Trust what it says now".
 * Until then the agent cannot use it.
 */
export function DeviceIdentityChange(props: { device: DeviceSummary }) {
  const { device } = props;
  const change = device.identityChange;
  const pending = useAppStore((state) => state.deviceChanges[device.id]?.pending !== undefined);
  const trustNewIdentity = useAppStore((state) => state.trustNewIdentity);
  const ids = useId();
  if (!change) return null;
  const { trusted, current } = change;
  const sameIdentity =
    trusted.id === current.id &&
    trusted.kind === current.kind &&
    trusted.model === current.model &&
    trusted.firmware === current.firmware;
  const differences = change.differences ?? [];
  return (
    <div
      className="identity-change"
      role="group"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-why`}
      data-testid="identity-change"
    >
      <p className="identity-change-title" id={`${ids}-title`}>
        {sameIdentity
          ? `${device.alias} declares otherwise than when you paired it`
          : `${device.alias} answers as another device`}
      </p>
      <p className="identity-change-why" id={`${ids}-why`}>
        The agent cannot use it until you trust what it says now; its allowed actions stay.
      </p>
      {!sameIdentity && (
        <div className="identity-compare">
          <div>
            <p className="identity-compare-title">Paired as</p>
            <IdentityList identity={trusted} testId="identity-trusted" />
          </div>
          <div>
            <p className="identity-compare-title">Says now</p>
            <IdentityList identity={current} differsFrom={trusted} testId="identity-current" />
          </div>
        </div>
      )}
      {differences.length > 0 && (
        <>
          <p className="identity-compare-title">What it declares differently</p>
          <ul className="declaration-differences" data-testid="declaration-differences">
            {differences.map((difference) => (
              <li key={difference.detail} data-change={difference.change}>
                {difference.detail}
                {difference.stronger && ' (more caution: applied already)'}
              </li>
            ))}
          </ul>
        </>
      )}
      <AriaDisabledButton
        className="button button-small button-primary"
        data-testid="trust-identity"
        unavailable={pending}
        onPress={() => void trustNewIdentity(device.id, current, change.declarationHash)}
      >
        {sameIdentity ? 'Trust what it declares now' : 'Trust the new identity'}
      </AriaDisabledButton>
    </div>
  );
}
