// Writing frames: answers, errors, results and events, escaped as JSON and streamed to the port.
#include "HomeAgentDevice.h"

#include "HomeAgentJson.h"

static const char REASON_REQUIRED[] PROGMEM = "required";
static const char REASON_TYPE[] PROGMEM = "type";
static const char REASON_INVALID_JSON[] PROGMEM = "invalid_json";
static const char REASON_TIMEOUT[] PROGMEM = "timeout";
static const char REASON_DENIED[] PROGMEM = "denied";
static const char REASON_FAILED[] PROGMEM = "failed";
static const char REASON_INVALID_FRAME[] PROGMEM = "invalid_frame";
static const char REASON_NOT_FOUND[] PROGMEM = "not_found";
static const char *const REASONS[] PROGMEM = {
    REASON_REQUIRED, REASON_TYPE,          REASON_INVALID_JSON, REASON_TIMEOUT,
    REASON_DENIED,   REASON_FAILED,        REASON_INVALID_FRAME, REASON_NOT_FOUND,
};

void HomeAgentDevice::writeFlash(const char *textP) { port_->print((const __FlashStringHelper *)textP); }

void HomeAgentDevice::writeEscaped(char c) {
  if (c == '"' || c == '\\') {
    port_->write('\\');
    port_->write(c);
  } else if ((uint8_t)c < 0x20) {
    static const char hex[] PROGMEM = "0123456789abcdef";
    port_->print(F("\\u00"));
    port_->write(pgm_read_byte(&hex[(uint8_t)c >> 4]));
    port_->write(pgm_read_byte(&hex[c & 0x0f]));
  } else {
    port_->write(c);  // bytes of UTF-8 text pass as they are
  }
}

void HomeAgentDevice::writeEscapedFlash(const char *textP, uint8_t length) {
  for (uint8_t i = 0; i < length; i++) {
    char c = (char)pgm_read_byte(textP + i);
    if (c == '\0') return;
    writeEscaped(c);
  }
}

void HomeAgentDevice::writeEscapedText(const char *text) {
  while (*text != '\0') writeEscaped(*text++);
}

void HomeAgentDevice::writeAnswerHead(bool ok) {
  writing_ = true;
  port_->print(F("{\"id\":"));
  port_->print(id_);
  port_->print(ok ? F(",\"ok\":true,") : F(",\"ok\":false,"));
}

void HomeAgentDevice::writeErrorHead(HomeAgentReason reason, const char *fieldP, uint8_t fieldLength) {
  writeAnswerHead(false);
  port_->print(F("\"error\":{\"reason\":\""));
  writeFlash((const char *)pgm_read_ptr(&REASONS[reason]));
  if (fieldP != nullptr) {
    port_->print(F("\",\"field\":\""));
    writeEscapedFlash(fieldP, fieldLength);
  }
  port_->print(F("\",\"detail\":\""));
}

void HomeAgentDevice::writeErrorEnd() {
  port_->print(F("\"}"));
  writeEnd();
}

void HomeAgentDevice::writeEnd() {
  port_->print(F("}\n"));
  writing_ = false;
}

void HomeAgentFields::head() {
  if (event_ == nullptr) {
    device_.writeAnswerHead(true);
    device_.port_->print(F("\"result\":{"));
  } else {
    device_.writing_ = true;
    device_.port_->print(F("{\"event\":\""));
    device_.writeEscapedFlash((const char *)event_);
    device_.port_->print(F("\",\"data\":{"));
  }
}

bool HomeAgentFields::field(const __FlashStringHelper *name) {
  if (stopped_) return false;
  if (count_ == 0)
    head();
  else
    device_.port_->write(',');
  count_++;
  device_.port_->write('"');
  device_.writeEscapedFlash((const char *)name);
  device_.port_->print(F("\":"));
  return true;
}

void HomeAgentFields::close() {
  if (stopped_) return;
  if (count_ == 0) head();  // no field was added: the frame is still written, with an empty object
  device_.port_->write('}');
  device_.writeEnd();
  stopped_ = true;
}

void HomeAgentFields::add(const __FlashStringHelper *name, bool value) {
  if (field(name)) device_.port_->print(value ? F("true") : F("false"));
}

void HomeAgentFields::add(const __FlashStringHelper *name, long value) {
  if (field(name)) device_.port_->print(value);
}

void HomeAgentFields::add(const __FlashStringHelper *name, unsigned long value) {
  if (field(name)) device_.port_->print(value);
}

void HomeAgentFields::add(const __FlashStringHelper *name, const char *value) {
  if (!field(name)) return;
  device_.port_->write('"');
  device_.writeEscapedText(value);
  device_.port_->write('"');
}

void HomeAgentFields::add(const __FlashStringHelper *name, const __FlashStringHelper *value) {
  if (!field(name)) return;
  device_.port_->write('"');
  device_.writeEscapedFlash((const char *)value);
  device_.port_->write('"');
}

void HomeAgentFields::addDecimal(const __FlashStringHelper *name, long value, uint8_t decimals) {
  if (!field(name)) return;
  unsigned long magnitude = value < 0 ? 0UL - (unsigned long)value : (unsigned long)value;
  unsigned long scale = 1;
  for (uint8_t i = 0; i < decimals; i++) scale *= 10;
  if (value < 0) device_.port_->write('-');
  device_.port_->print(magnitude / scale);
  if (decimals == 0) return;
  device_.port_->write('.');
  unsigned long fraction = magnitude % scale;
  for (scale /= 10; scale > 0; scale /= 10) {
    device_.port_->write((char)('0' + fraction / scale));
    fraction %= scale;
  }
}

const char *HomeAgentCall::find(const __FlashStringHelper *name, const char **valueEnd) const {
  if (args_ == nullptr) return nullptr;  // the request had no `args`
  home_agent_json::ObjectReader reader(args_);
  home_agent_json::Member member;
  uint8_t length = (uint8_t)strlen_P((const char *)name);
  while (reader.next(member) == 1) {
    if (!home_agent_json::keyIs(member, (const char *)name, length)) continue;
    *valueEnd = member.valueEnd;
    return member.value;
  }
  return nullptr;
}

bool HomeAgentCall::has(const __FlashStringHelper *name) const {
  const char *end;
  return find(name, &end) != nullptr;
}

bool HomeAgentCall::boolean(const __FlashStringHelper *name) const {
  const char *end;
  const char *value = find(name, &end);
  bool result = false;
  if (value != nullptr) home_agent_json::readBoolean(value, end, result);
  return result;
}

long HomeAgentCall::integer(const __FlashStringHelper *name) const {
  const char *end;
  const char *value = find(name, &end);
  long result = 0;
  if (value != nullptr && !home_agent_json::readInteger(value, end, result)) result = 0;
  return result;
}

int HomeAgentCall::text(const __FlashStringHelper *name, char *buffer, size_t size) const {
  const char *end;
  const char *value = find(name, &end);
  if (value == nullptr) return -1;
  return home_agent_json::unescapeString(value, end, buffer, size);
}

void HomeAgentCall::fail(HomeAgentReason reason, const __FlashStringHelper *field, const __FlashStringHelper *detail) {
  if (stopped_ || count_ > 0) return;
  const char *fieldP = (const char *)field;
  device_.writeErrorHead(reason, fieldP, fieldP != nullptr ? (uint8_t)strlen_P(fieldP) : 0);
  if (detail != nullptr) device_.writeEscapedFlash((const char *)detail);
  device_.writeErrorEnd();
  stopped_ = true;
}

void HomeAgentCall::finish() { close(); }

HomeAgentEvent::HomeAgentEvent(HomeAgentDevice &device, const __FlashStringHelper *name)
    : HomeAgentFields(device, name, device.port_ == nullptr || device.writing_) {}

bool HomeAgentEvent::send() {
  if (stopped_) return false;
  close();
  return true;
}
