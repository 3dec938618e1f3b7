// HomeAgentDevice: makes a board a Home Agent device speaking the Home Agent serial protocol
// (docs/serial-protocol.md): newline-delimited JSON, request ids, hello, calls, events.
//
// A sketch declares its identity and tools with the macros below and writes one handler per tool;
// the library answers `hello`, reads requests into one bounded line buffer, checks arguments against
// the declared parameters, and writes answers and events straight to the serial port. All constant
// text stays in flash (PROGMEM); nothing is allocated on the heap.
#ifndef HOME_AGENT_DEVICE_H
#define HOME_AGENT_DEVICE_H

#include <Arduino.h>

/** The longest request line (newline excluded) the library reads; stated in hello as maxFrameBytes. */
#define HOME_AGENT_MAX_FRAME_BYTES 128

/**
 * Tool flags, combined with `|`: the batch scheduler's declarations, the person's confirmation, and
 * whether a call only reads (changes nothing on the device).
 */
#define HOME_AGENT_PARALLEL_SAFE 0x01
#define HOME_AGENT_SERIAL 0x02
#define HOME_AGENT_CONFIRM 0x04
#define HOME_AGENT_READ_ONLY 0x08

/** Why a call failed; the host shows the reason to the agent (docs/serial-protocol.md, Responses). */
enum HomeAgentReason : uint8_t {
  HOME_AGENT_REQUIRED,
  HOME_AGENT_TYPE,
  HOME_AGENT_INVALID_JSON,
  HOME_AGENT_TIMEOUT,
  HOME_AGENT_DENIED,
  HOME_AGENT_FAILED,
  HOME_AGENT_INVALID_FRAME,
  HOME_AGENT_NOT_FOUND,
};

class HomeAgentDevice;

/** Writes the fields of one JSON object (a call's result, an event's data) straight to the port. */
class HomeAgentFields {
 public:
  void add(const __FlashStringHelper *name, bool value);
  void add(const __FlashStringHelper *name, int value) { add(name, (long)value); }
  void add(const __FlashStringHelper *name, long value);
  void add(const __FlashStringHelper *name, unsigned long value);
  /** A string from RAM (a buffer the sketch filled). */
  void add(const __FlashStringHelper *name, const char *value);
  void add(const __FlashStringHelper *name, const __FlashStringHelper *value);
  /** A decimal number from an integer count of 10^-decimals: addDecimal(F("celsius"), 215, 1) writes 21.5. */
  void addDecimal(const __FlashStringHelper *name, long value, uint8_t decimals);

 protected:
  // `event` names the event; nullptr makes these the fields of a call's result.
  HomeAgentFields(HomeAgentDevice &device, const __FlashStringHelper *event, bool stopped)
      : device_(device), event_(event), stopped_(stopped) {}
  bool field(const __FlashStringHelper *name);
  void close();
  void head();
  HomeAgentDevice &device_;
  const __FlashStringHelper *event_;
  uint8_t count_ = 0;
  // Nothing more may be written: the call failed, or the event would cut into another frame.
  bool stopped_;
};

/** One call to a tool, handed to its handler: the arguments (already checked) and the answer. */
class HomeAgentCall : public HomeAgentFields {
 public:
  /** Whether the caller gave this argument. */
  bool has(const __FlashStringHelper *name) const;
  /** A declared boolean argument (false when absent). */
  bool boolean(const __FlashStringHelper *name) const;
  /** A declared integer argument (0 when absent). */
  long integer(const __FlashStringHelper *name) const;
  /** Copies a declared string argument into `buffer` (NUL-terminated, cut to fit); returns its length or -1. */
  int text(const __FlashStringHelper *name, char *buffer, size_t size) const;

  /** Adds one field to the result object. */
  template <typename T>
  void result(const __FlashStringHelper *name, T value) {
    add(name, value);
  }
  /**
   * Ends the call with an error instead of a result: the reason, the argument at fault (or
   * nullptr) and why. Call it before adding any result field (bytes on the wire cannot be taken back).
   */
  void fail(HomeAgentReason reason, const __FlashStringHelper *field, const __FlashStringHelper *detail);

 private:
  friend class HomeAgentDevice;
  HomeAgentCall(HomeAgentDevice &device, const char *args) : HomeAgentFields(device, nullptr, false), args_(args) {}
  void finish();
  const char *find(const __FlashStringHelper *name, const char **valueEnd) const;
  const char *args_;
};

/** An unsolicited event: `HomeAgentEvent event(device, F("button")); event.add(F("pressed"), true); event.send();` */
class HomeAgentEvent : public HomeAgentFields {
 public:
  HomeAgentEvent(HomeAgentDevice &device, const __FlashStringHelper *name);
  /** Ends the frame (an event with no fields has empty data). False if it was not sent: never inside a handler. */
  bool send();
};

typedef void (*HomeAgentHandler)(HomeAgentCall &call);

/** One tool, kept in flash. `params` lists the arguments: "channel integer 1..4 required, on boolean". */
struct HomeAgentTool {
  const char *name;
  const char *description;
  const char *params;
  uint8_t flags;
  HomeAgentHandler handler;
};

/** The device's identity, kept in flash: what pairing shows and confirms. */
struct HomeAgentIdentity {
  const char *id;
  const char *kind;
  const char *model;
  const char *firmware;
};

/** The device: call begin() in setup() and poll() in every loop(). */
class HomeAgentDevice {
 public:
  HomeAgentDevice(const HomeAgentIdentity *identity, const HomeAgentTool *const *tools, uint8_t toolCount)
      : identity_(identity), tools_(tools), toolCount_(toolCount) {}

  /** Opens the port and says `ready` (lost if nobody listens yet: the host asks hello when it opens the port). */
  void begin(HardwareSerial &port, unsigned long baud);
  /** Reads what arrived and answers a complete request. Never blocks waiting for input. */
  void poll();

 private:
  friend class HomeAgentFields;
  friend class HomeAgentCall;
  friend class HomeAgentEvent;

  void handleLine();
  void handleCall(const char *tool, const char *toolEnd, const char *args);
  bool checkArguments(const HomeAgentTool &tool, const char *args);
  void writeHello();
  void writeTool(const HomeAgentTool &tool);
  void writeParameters(const char *paramsP);
  // Frame pieces: `{"id":N,"ok":…,` and an error up to its detail's opening quote.
  void writeAnswerHead(bool ok);
  void writeErrorHead(HomeAgentReason reason, const char *fieldP, uint8_t fieldLength);
  void writeErrorEnd();
  void writeFlash(const char *textP);
  void writeEscaped(char c);
  void writeEscapedFlash(const char *textP, uint8_t length = 255);
  void writeEscapedText(const char *text);
  void writeEnd();

  const HomeAgentIdentity *identity_;
  const HomeAgentTool *const *tools_;
  uint8_t toolCount_;
  HardwareSerial *port_ = nullptr;
  char line_[HOME_AGENT_MAX_FRAME_BYTES + 1];
  uint8_t length_ = 0;
  bool overflowed_ = false;
  // The line holds a NUL byte: it is refused when it ends, whatever comes before the NUL.
  bool heldNul_ = false;
  // The request id as the host wrote it (up to 16 digits: JavaScript's largest safe integer).
  char id_[17];
  // True while a frame is being written, so an event from a handler cannot cut into the answer.
  bool writing_ = false;
};

// Declares `name` as the device's identity, with its text in flash.
#define HOME_AGENT_IDENTITY(name, id, kind, model, firmware)               \
  static const char name##_id[] PROGMEM = id;                              \
  static const char name##_kind[] PROGMEM = kind;                          \
  static const char name##_model[] PROGMEM = model;                        \
  static const char name##_firmware[] PROGMEM = firmware;                  \
  static const HomeAgentIdentity name PROGMEM = {name##_id, name##_kind, name##_model, name##_firmware}

// Declares the tool `name` with its text in flash; `params` as in HomeAgentTool, "" for none.
#define HOME_AGENT_TOOL(name, toolName, description, params, flags, handler)                      \
  static const char name##_name[] PROGMEM = toolName;                                             \
  static const char name##_description[] PROGMEM = description;                                   \
  static const char name##_params[] PROGMEM = params;                                             \
  static const HomeAgentTool name PROGMEM = {name##_name, name##_description, name##_params, flags, handler}

// Declares the list of tools `name` (pointers to tools declared with HOME_AGENT_TOOL), in flash.
#define HOME_AGENT_TOOLS(name, ...) static const HomeAgentTool *const name[] PROGMEM = {__VA_ARGS__}

// The number of tools in a list declared with HOME_AGENT_TOOLS.
#define HOME_AGENT_COUNT(list) ((uint8_t)(sizeof(list) / sizeof((list)[0])))

#endif
