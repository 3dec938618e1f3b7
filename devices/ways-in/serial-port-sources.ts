/**
 * Where the default way in's scan found a port, for the API contract: data only (no serialport), so
 * the renderer's contract stays free of Node packages.
 */
export { PORT_SOURCE_MEANINGS, PORT_SOURCES, type PortSource } from '../serial/port-source.ts';
