import { useEffect, useId, useRef, useState } from 'react';
import {
  pairingCodeSchema,
  PORT_SOURCE_MEANINGS,
  type FoundDevice,
  type ScannedPort,
} from '../../host/contract/api-contract.ts';
import type { DevicePlacement } from '../state/add-device-flow.ts';
import { ShownDevice } from './shown-device.tsx';
import { useAppStore } from './use-app-store.ts';
import { scanSummary } from '../state/scan-summary.ts';

/**
 * "Add device": the ports a scan found (it opens none) with what the OS says of each, a field for
 * a path and a profile, then what the chosen device says it is, and Pair. Works with the keyboard
 * alone: the first control takes the focus when the panel opens, each step's result is announced.
 */
export function AddDevicePanel() {
  const scan = useAppStore((state) => state.addDevice.scan);
  const probe = useAppStore((state) => state.addDevice.probe);
  const scanPorts = useAppStore((state) => state.scanPorts);
  const probeDevice = useAppStore((state) => state.probeDevice);
  const closeAddDevice = useAppStore((state) => state.closeAddDevice);
  const [path, setPath] = useState('');
  const [profile, setProfile] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  // The one-time code lives in this field only: sent with the look, then emptied; never in the store.
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  const asked = askedOptions(scan.profiles.find((candidate) => candidate.name === profile)?.options);

  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    heading.current?.focus();
    const element = panel.current;
    // Closing the panel (Done, Cancel, Escape) hands the focus back to the button that opened it.
    return () => {
      if (element?.contains(document.activeElement) || document.activeElement === document.body)
        document.getElementById('add-device-button')?.focus();
    };
  }, []);

  const choose = (port: ScannedPort): void => {
    setPath(port.path);
    setProfile(port.simulated?.profile ?? '');
  };
  const placement = (): DevicePlacement => ({
    path: path.trim(),
    ...(profile ? { profile } : {}),
    ...(asked.length > 0
      ? {
          options: Object.fromEntries(
            asked.map((option) => {
              const value = values[option.key] ?? option.initial;
              return [option.key, option.integer ? Number(value) : value];
            }),
          ),
        }
      : {}),
  });
  const looking = probe.status === 'probing';
  const shown = probe.status === 'done';
  const needsCode = scan.found.some((device) => device.path === path.trim() && device.needsCode === true);
  const look = (): void => {
    if (!path.trim() || looking) return;
    if (!needsCode) return void probeDevice(placement());
    const problem = pairingCodeProblem(code);
    setCodeError(problem ?? '');
    if (problem !== undefined) return codeInput.current?.focus();
    void probeDevice(placement(), code.trim());
    setCode('');
  };

  return (
    <section
      className="add-device"
      id="add-device-panel"
      ref={panel}
      aria-labelledby={`${ids}-title`}
      data-testid="add-device-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') closeAddDevice();
      }}
    >
      <h2 className="add-device-title" id={`${ids}-title`} tabIndex={-1} ref={heading}>
        Add a device
      </h2>
      {shown && probe.device ? (
        <ShownDevice />
      ) : (
        <form
          className="add-device-form"
          onSubmit={(event) => {
            event.preventDefault();
            look();
          }}
        >
          <fieldset className="add-device-ports" aria-describedby={`${ids}-scan-status`}>
            <legend>Ports found</legend>
            <p className="side-hint" id={`${ids}-scan-status`} role="status" data-testid="scan-status">
              {scan.status === 'scanning'
                ? 'Looking for ports (none is opened: opening one resets many boards)…'
                : scan.status === 'done'
                  ? scanSummary({ ports: scan.ports.length, found: scan.found.length })
                  : ''}
            </p>
            {scan.status === 'failed' && (
              <p className="side-error" role="alert">
                {scan.error}
              </p>
            )}
            {scan.warnings.length > 0 && (
              <ul className="add-device-warnings" aria-label="Scan warnings">
                {scan.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
            <ul className="port-list">
              {scan.ports.map((port) => (
                <PortOption key={port.path} port={port} chosen={port.path === path} onChoose={choose} name={ids} />
              ))}
              {scan.found.map((device) => (
                <FoundOption
                  key={device.path}
                  device={device}
                  chosen={device.path === path}
                  name={ids}
                  onChoose={(found) => {
                    setPath(found.path);
                    setProfile('');
                    setCodeError('');
                  }}
                />
              ))}
            </ul>
            <button
              type="button"
              className="button button-small"
              data-testid="scan-again"
              disabled={scan.status === 'scanning'}
              onClick={() => void scanPorts(path.trim() ? [path.trim()] : [])}
            >
              Scan again
            </button>
          </fieldset>
          <div className="add-device-fields">
            <label className="field">
              <span className="field-label">Path</span>
              <input
                type="text"
                className="field-input"
                data-testid="device-path-input"
                value={path}
                placeholder="/dev/ttyUSB0"
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => setPath(event.currentTarget.value)}
              />
            </label>
            <label className="field">
              <span className="field-label">Profile</span>
              <select
                className="field-input"
                data-testid="device-profile-select"
                value={profile}
                onChange={(event) => setProfile(event.currentTarget.value)}
              >
                <option value="">None: it speaks the Home Agent protocol</option>
                {scan.profiles.map((candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.name} ({titleOf(candidate.options) ?? 'plain text lines'})
                  </option>
                ))}
              </select>
            </label>
            {needsCode && (
              <div className="field">
                <label className="field-label" htmlFor={`${ids}-code`}>
                  Pairing code
                </label>
                <input
                  id={`${ids}-code`}
                  ref={codeInput}
                  type="text"
                  className="field-input"
                  data-testid="pairing-code-input"
                  value={code}
                  spellCheck={false}
                  autoComplete="one-time-code"
                  autoCapitalize="off"
                  aria-invalid={codeError !== ''}
                  aria-describedby={`${ids}-code-hint${codeError ? ` ${ids}-code-error` : ''}`}
                  onChange={(event) => {
                    setCode(event.currentTarget.value);
                    setCodeError('');
                  }}
                />
                <span className="side-hint" id={`${ids}-code-hint`}>
                  The code its bridge printed when it started (<code>home-agent bridge --pairing-code</code> makes a new
                  one). It is used once and kept nowhere.
                </span>
                {codeError && (
                  <span className="side-error" id={`${ids}-code-error`} role="alert" data-testid="pairing-code-error">
                    {codeError}
                  </span>
                )}
              </div>
            )}
            {asked.map((option) => (
              <label key={option.key} className="field">
                <span className="field-label">{option.title}</span>
                <input
                  type={option.integer ? 'number' : 'text'}
                  className="field-input"
                  {...(option.minimum !== undefined ? { min: option.minimum } : {})}
                  {...(option.maximum !== undefined ? { max: option.maximum } : {})}
                  value={values[option.key] ?? option.initial}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setValues((current) => ({ ...current, [option.key]: value }));
                  }}
                />
              </label>
            ))}
          </div>
          <div className="add-device-actions">
            <button
              type="submit"
              className="button button-small button-primary"
              data-testid="probe-device"
              disabled={!path.trim() || looking}
              aria-busy={looking}
            >
              Look at this device
            </button>
            <button type="button" className="button button-small" onClick={closeAddDevice}>
              Cancel
            </button>
          </div>
          <p className="side-hint" role="status" data-testid="probe-status">
            {looking ? `Opening ${probe.placement?.path ?? 'the port'} and asking the device who it is…` : ''}
          </p>
          {probe.status === 'failed' && (
            <p className="side-error" role="alert" data-testid="probe-error">
              {probe.error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

/** One device found behind a broker, as a choice: its path, where it was found, who it says it is, who is paired there. */
function FoundOption(props: {
  device: FoundDevice;
  chosen: boolean;
  name: string;
  onChoose: (device: FoundDevice) => void;
}) {
  const { device } = props;
  const describedBy = `${props.name}-${device.path}-about`;
  return (
    <li className="port-option" data-testid="found-device-option" data-path={device.path}>
      <label className="port-label">
        <input
          type="radio"
          name={`${props.name}-port`}
          value={device.path}
          checked={props.chosen}
          aria-describedby={describedBy}
          onChange={() => props.onChoose(device)}
        />
        <span className="port-path">{device.path}</span>
      </label>
      <span className="port-about" id={describedBy}>
        {[
          device.about,
          `says it is ${device.kind} ${device.id} (${device.model})`,
          device.online ? 'online' : 'offline',
          device.paired.length > 0
            ? `paired as ${device.paired.map((paired) => `${paired.alias} (${paired.id})`).join(', ')}`
            : undefined,
        ]
          .filter((part) => part !== undefined)
          .join(' · ')}
      </span>
    </li>
  );
}

/** One port the scan found, as a choice: its path, how it was found, what the OS says, who is paired there. */
function PortOption(props: {
  port: ScannedPort;
  chosen: boolean;
  name: string;
  onChoose: (port: ScannedPort) => void;
}) {
  const { port } = props;
  const taken = port.attachedFromCommandLine !== undefined;
  const describedBy = `${props.name}-${port.path}-about`;
  return (
    <li className="port-option" data-testid="port-option" data-path={port.path}>
      <label className="port-label">
        <input
          type="radio"
          name={`${props.name}-port`}
          value={port.path}
          checked={props.chosen}
          disabled={taken}
          aria-describedby={describedBy}
          onChange={() => props.onChoose(port)}
        />
        <span className="port-path">{port.path}</span>
      </label>
      <span className="port-about" id={describedBy}>
        {[
          PORT_SOURCE_MEANINGS[port.source],
          port.simulated
            ? `plays ${port.simulated.kind} ${port.simulated.id}${port.simulated.profile ? ` (profile ${port.simulated.profile})` : ''}`
            : undefined,
          port.vendorId !== undefined || port.productId !== undefined
            ? `USB ${port.vendorId ?? '?'}:${port.productId ?? '?'}`
            : undefined,
          port.manufacturer,
          port.serialNumber !== undefined ? `serial ${port.serialNumber}` : undefined,
          port.paired.length > 0
            ? `paired as ${port.paired.map((device) => `${device.alias} (${device.id})`).join(', ')}`
            : undefined,
          taken ? `in use by ${port.attachedFromCommandLine}, named on the command line` : undefined,
        ]
          .filter((part) => part !== undefined)
          .join(' · ')}
      </span>
    </li>
  );
}

/** An option a profile's way in asks: a required property of its options' JSON schema. */
interface AskedOption {
  key: string;
  title: string;
  integer: boolean;
  minimum?: number;
  maximum?: number;
  /** What the field holds until the person types: the smallest value it takes, or nothing. */
  initial: string;
}

/** The options a profile's way in asks, read from the JSON schema the host lists with it (the host checks them again). */
function askedOptions(schema: Record<string, unknown> | undefined): AskedOption[] {
  if (schema === undefined) return [];
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.flatMap((key) => {
    if (typeof key !== 'string' || properties[key] === undefined) return [];
    const property = properties[key];
    const number = (name: string): number | undefined =>
      typeof property[name] === 'number' ? (property[name] as number) : undefined;
    const minimum = number('minimum');
    const maximum = number('maximum');
    return [
      {
        key,
        title: typeof property.title === 'string' ? property.title : key,
        integer: property.type === 'integer' || property.type === 'number',
        ...(minimum !== undefined ? { minimum } : {}),
        ...(maximum !== undefined ? { maximum } : {}),
        initial: minimum !== undefined ? String(minimum) : '',
      },
    ];
  });
}

/** What a profile speaks, as its options' schema titles it (its `title`); undefined for a profile with none. */
function titleOf(schema: Record<string, unknown> | undefined): string | undefined {
  return typeof schema?.title === 'string' ? schema.title : undefined;
}

/** Why a typed pairing code cannot be one (the host checks it again), or undefined when it may be. */
function pairingCodeProblem(code: string): string | undefined {
  const typed = code.trim();
  if (typed === '') return 'Enter the pairing code its bridge printed.';
  if (!pairingCodeSchema.safeParse(typed).success)
    return 'A pairing code is letters, digits and - as the bridge printed it, with no spaces.';
  return undefined;
}
