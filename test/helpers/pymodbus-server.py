"""A Modbus RTU peer for Home Agent's tests: pymodbus 3.0 serving one or more buses.

Run with Debian's own /usr/bin/python3 (python3-pymodbus, python3-serial-asyncio). The first
argument is a JSON configuration:

  {"buses": [{"port": "/tmp/…/bus0-server", "baudrate": 9600, "parity": "N", "stopbits": 1,
              "units": {"1": {"ir": {"0": {"float32": 229.8}}, "co": {"0": false}, "hr": {}, "di": {}}}}]}

Register values are a raw 16-bit number or one typed value encoded by pymodbus' own payload
builder ({"float32": x}, {"int32": n}, {"uint32": n}, {"int16": n}, {"uint16": n}; optional
"byteorder"/"wordorder": "big"|"little"), so the host's decoder is checked against an encoder it
did not write. Addresses not given do not exist: reading them answers exception 2.

Stdout carries one JSON object per line: {"event": "ready"} once every port is open, then the
server's own log of the wire: {"event": "request", "bus", "unit", "function", "address", "count"}
when a request frame arrived and {"event": "reply", …} when its answer left (none for an absent
unit). Stdin takes one JSON command per line; each is answered by {"event": "done", "id", …}:

  get     {"bus", "unit", "table": "co"|"di"|"hr"|"ir", "address", "count"} → "values"
  set     {"bus", "unit", "table", "address", "values": [...]}
  drop    {"bus", "unit"}              the unit stops answering (as if powered off)
  hold    {"bus", "ms"}                every later reply on the bus waits this long
  barrier {"count", "timeout_ms", "after"}  once `after` more requests (default 0) have passed, the
                                       next replies wait until `count` requests (any bus) are waiting,
                                       or the timeout passed ("barrier-timeout" is logged)
  garble  {"bus"}                      the next reply on the bus goes out with a broken CRC
  reopen  {"bus"}                      close and reopen the bus's port (after a replug)
  sync    {}                           nothing: its "done" comes after every log line of the wire
                                       so far (a test reads the log after a call only past a sync)

The process exits when stdin closes, so it never outlives the test that started it.
"""

import asyncio
import json
import sys
import time

from pymodbus.constants import Endian
from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.payload import BinaryPayloadBuilder
from pymodbus.server.async_io import ModbusSerialServer, ModbusSingleRequestHandler
from pymodbus.transaction import ModbusRtuFramer

TABLES = {"co": "c", "di": "d", "hr": "h", "ir": "i"}
ORDER = {"big": Endian.Big, "little": Endian.Little}


def emit(event):
    event["t"] = time.monotonic()
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def registers_of(spec):
    """One value spec → the list of 16-bit registers pymodbus' builder makes of it."""
    if isinstance(spec, int):
        return [spec]
    builder = BinaryPayloadBuilder(
        byteorder=ORDER[spec.get("byteorder", "big")], wordorder=ORDER[spec.get("wordorder", "big")]
    )
    if "float32" in spec:
        builder.add_32bit_float(spec["float32"])
    elif "int32" in spec:
        builder.add_32bit_int(spec["int32"])
    elif "uint32" in spec:
        builder.add_32bit_uint(spec["uint32"])
    elif "int16" in spec:
        builder.add_16bit_int(spec["int16"])
    elif "uint16" in spec:
        builder.add_16bit_uint(spec["uint16"])
    else:
        raise ValueError(f"unknown value spec {spec}")
    return builder.to_registers()


def block_of(table, values):
    cells = {}
    for address, spec in (values or {}).items():
        if table in ("co", "di"):
            cells[int(address)] = 1 if spec else 0
        else:
            for offset, register in enumerate(registers_of(spec)):
                cells[int(address) + offset] = register
    return ModbusSparseDataBlock(cells)


class Gate:
    """Holds replies: a per-bus delay, and a barrier across buses (proves calls overlap)."""

    def __init__(self):
        self.hold_ms = {}
        self.barrier = None

    async def wait(self, bus):
        barrier = self.barrier
        if barrier is not None and barrier["after"] > 0:
            barrier["after"] -= 1
            barrier = None
        if barrier is not None:
            barrier["waiting"] += 1
            if barrier["waiting"] >= barrier["count"]:
                barrier["event"].set()
                self.barrier = None
            try:
                await asyncio.wait_for(barrier["event"].wait(), barrier["timeout_ms"] / 1000)
            except asyncio.TimeoutError:
                emit({"event": "barrier-timeout", "bus": bus})
                if self.barrier is barrier:
                    self.barrier = None
        delay = self.hold_ms.get(bus, 0)
        if delay:
            await asyncio.sleep(delay / 1000)


GATE = Gate()
GARBLE = set()


class LoggingHandler(ModbusSingleRequestHandler):
    """The serial handler, logging each request and reply and holding replies at the gate."""

    def execute(self, request, *addr):
        bus = self.server.bus_index
        emit(
            {
                "event": "request",
                "bus": bus,
                "unit": request.unit_id,
                "function": request.function_code,
                "address": getattr(request, "address", None),
                "count": getattr(request, "count", None),
            }
        )
        asyncio.get_event_loop().create_task(self.answer(request, addr))

    async def answer(self, request, addr):
        await GATE.wait(self.server.bus_index)
        super().execute(request, *addr)

    def send(self, message, *addr, **kwargs):
        bus = self.server.bus_index
        emit(
            {
                "event": "reply",
                "bus": bus,
                "unit": message.unit_id,
                "function": message.function_code,
                "exception": message.function_code > 0x80,
            }
        )
        if bus in GARBLE and message.should_respond:
            GARBLE.discard(bus)
            packet = bytearray(self.framer.buildPacket(message))
            packet[-1] ^= 0xFF
            self._send_(bytes(packet))
            return
        super().send(message, *addr, **kwargs)


def build_bus(index, config):
    slaves = {
        int(unit): ModbusSlaveContext(
            **{key: block_of(key, tables.get(key)) for key in TABLES},
            zero_mode=True,
        )
        for unit, tables in config["units"].items()
    }
    server = ModbusSerialServer(
        ModbusServerContext(slaves=slaves, single=False),
        framer=ModbusRtuFramer,
        port=config["port"],
        baudrate=config.get("baudrate", 9600),
        parity=config.get("parity", "N"),
        stopbits=config.get("stopbits", 1),
        ignore_missing_slaves=True,
        handler=LoggingHandler,
    )
    server.bus_index = index
    return server


async def command(servers, line):
    request = json.loads(line)
    op = request["op"]
    reply = {"event": "done", "id": request.get("id"), "op": op}
    bus = request.get("bus", 0)
    if op in ("get", "set"):
        store = servers[bus].context[request["unit"]].store[TABLES[request["table"]]]
        if op == "get":
            reply["values"] = [int(value) for value in store.getValues(request["address"], request["count"])]
        else:
            store.setValues(request["address"], request["values"])
    elif op == "drop":
        del servers[bus].context[request["unit"]]
    elif op == "hold":
        GATE.hold_ms[bus] = request["ms"]
    elif op == "barrier":
        GATE.barrier = {
            "count": request["count"],
            "timeout_ms": request["timeout_ms"],
            "after": request.get("after", 0),
            "waiting": 0,
            "event": asyncio.Event(),
        }
    elif op == "garble":
        GARBLE.add(bus)
    elif op == "reopen":
        await servers[bus].shutdown()
        await servers[bus].start()
    elif op == "sync":
        pass
    else:
        reply["error"] = f"unknown op {op}"
    emit(reply)


async def main():
    config = json.loads(sys.argv[1])
    servers = [build_bus(index, bus) for index, bus in enumerate(config["buses"])]
    for server in servers:
        await server.start()
    emit({"event": "ready"})
    loop = asyncio.get_event_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        if line.strip():
            await command(servers, line)
    for server in servers:
        await server.shutdown()


asyncio.run(main())
