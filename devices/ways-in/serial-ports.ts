/**
 * The default way in's ports, as the host lists and checks them (`devices scan`, the Add-device
 * form): the host reaches devices/serial/ only through the list of ways in, as it does modbus and mqtt.
 */
export { formatScanLine, scanPorts, type PortCandidate } from '../serial/scan-ports.ts';
export { checkSerialPort, type SerialPortCheck } from '../serial/check-serial-port.ts';
