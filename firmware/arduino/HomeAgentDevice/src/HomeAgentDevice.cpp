#include "HomeAgentDevice.h"

#include "HomeAgentJson.h"
#include "HomeAgentParams.h"

using home_agent_json::Member;
using home_agent_json::ObjectReader;
using home_agent_params::Param;
using home_agent_params::ParamReader;

static const char KEY_ID[] PROGMEM = "id";
static const char KEY_OP[] PROGMEM = "op";
static const char KEY_TOOL[] PROGMEM = "tool";
static const char KEY_ARGS[] PROGMEM = "args";
static const char OP_HELLO[] PROGMEM = "\"hello\"";
static const char OP_CALL[] PROGMEM = "\"call\"";

// The value of a member, if its text (quotes included) is the flash string `literalP`.
static bool valueIs(const char *value, const char *valueEnd, const char *literalP) {
  size_t length = strlen_P(literalP);
  return (size_t)(valueEnd - value) == length && strncmp_P(value, literalP, length) == 0;
}

void HomeAgentDevice::begin(HardwareSerial &port, unsigned long baud) {
  port_ = &port;
  port.begin(baud);
  // Says it has (re)started, so a host that already has the port open asks hello again at once.
  HomeAgentEvent ready(*this, F("ready"));
  ready.send();
}

void HomeAgentDevice::poll() {
  if (port_ == nullptr) return;
  while (port_->available() > 0) {
    char c = (char)port_->read();
    if (c == '\n') {
      line_[length_] = '\0';
      if (overflowed_) {
        // The buffer still holds the request's start, and with it the id the host writes first.
        if (home_agent_json::leadingId(line_, id_)) {
          writeErrorHead(HOME_AGENT_FAILED, nullptr, 0);
          port_->print(F("request longer than the "));
          port_->print(HOME_AGENT_MAX_FRAME_BYTES);
          port_->print(F(" bytes this device reads (maxFrameBytes)"));
          writeErrorEnd();
        }
      } else if (heldNul_) {
        // JSON has no raw NUL, and the line buffer would end at it: a request cut short there could
        // still parse and run (`{…"on":true}}\0…`). Refused whole, as the host would refuse it.
        if (home_agent_json::leadingId(line_, id_)) {
          writeErrorHead(HOME_AGENT_INVALID_JSON, nullptr, 0);
          port_->print(F("the request is not valid JSON (it holds a NUL byte)"));
          writeErrorEnd();
        }
      } else if (length_ > 0) {
        handleLine();
      }
      length_ = 0;
      overflowed_ = false;
      heldNul_ = false;
      return;  // one request per poll, so the sketch's loop runs between requests
    }
    if (c == '\0') heldNul_ = true;
    if (overflowed_) continue;
    if (length_ == HOME_AGENT_MAX_FRAME_BYTES) {
      overflowed_ = true;
      continue;
    }
    line_[length_++] = c;
  }
}

void HomeAgentDevice::handleLine() {
  ObjectReader reader(line_);
  Member member;
  const char *op = nullptr, *opEnd = nullptr, *tool = nullptr, *toolEnd = nullptr, *args = nullptr;
  bool hasId = false;
  int8_t read;
  while ((read = reader.next(member)) == 1) {
    if (home_agent_json::keyIs(member, KEY_ID, 2)) {
      hasId = home_agent_json::copyId(member.value, member.valueEnd, id_);
    } else if (home_agent_json::keyIs(member, KEY_OP, 2)) {
      op = member.value;
      opEnd = member.valueEnd;
    } else if (home_agent_json::keyIs(member, KEY_TOOL, 4)) {
      tool = member.value;
      toolEnd = member.valueEnd;
    } else if (home_agent_json::keyIs(member, KEY_ARGS, 4)) {
      args = member.value;
    }
  }
  if (read < 0 || *home_agent_json::skipSpace(reader.end()) != '\0') {
    if (home_agent_json::leadingId(line_, id_)) {
      writeErrorHead(HOME_AGENT_INVALID_JSON, nullptr, 0);
      port_->print(F("the request is not valid JSON"));
      writeErrorEnd();
    }
    return;
  }
  if (!hasId) return;  // without an id there is nobody to answer
  if (op != nullptr && valueIs(op, opEnd, OP_HELLO)) return writeHello();
  if (op == nullptr || !valueIs(op, opEnd, OP_CALL)) {
    writeErrorHead(HOME_AGENT_INVALID_FRAME, nullptr, 0);
    port_->print(F("op must be hello or call"));
    return writeErrorEnd();
  }
  if (tool == nullptr || *tool != '"') {
    writeErrorHead(HOME_AGENT_INVALID_FRAME, nullptr, 0);
    port_->print(F("tool must be a string"));
    return writeErrorEnd();
  }
  if (args != nullptr && *args != '{') {
    writeErrorHead(HOME_AGENT_INVALID_FRAME, nullptr, 0);
    port_->print(F("args must be an object"));
    return writeErrorEnd();
  }
  handleCall(tool, toolEnd, args);
}

void HomeAgentDevice::handleCall(const char *tool, const char *toolEnd, const char *args) {
  // The name between the quotes, compared as written (the host never escapes a tool name).
  const char *name = tool + 1;
  size_t nameLength = (size_t)(toolEnd - tool - 2);
  for (uint8_t index = 0; index < toolCount_; index++) {
    HomeAgentTool declared;
    memcpy_P(&declared, pgm_read_ptr(&tools_[index]), sizeof declared);
    if (strlen_P(declared.name) != nameLength || strncmp_P(name, declared.name, nameLength) != 0) continue;
    if (!checkArguments(declared, args)) return;
    HomeAgentCall call(*this, args);
    declared.handler(call);
    call.finish();
    return;
  }
  writeErrorHead(HOME_AGENT_NOT_FOUND, nullptr, 0);
  port_->print(F("no action "));
  port_->write((const uint8_t *)name, nameLength);  // still JSON-escaped as the host wrote it
  writeErrorEnd();
}

bool HomeAgentDevice::checkArguments(const HomeAgentTool &tool, const char *args) {
  ParamReader params(tool.params);
  Param param;
  while (params.next(param)) {
    Member member;
    bool found = false;
    if (args != nullptr) {  // a request without `args` gives no argument
      ObjectReader reader(args);
      while (!found && reader.next(member) == 1) found = home_agent_json::keyIs(member, param.nameP, param.nameLength);
    }
    if (!found) {
      if (!param.required) continue;
      writeErrorHead(HOME_AGENT_REQUIRED, param.nameP, param.nameLength);
      writeEscapedFlash(param.nameP, param.nameLength);
      port_->print(F(" is required"));
      writeErrorEnd();
      return false;
    }
    bool ok = false;
    if (param.type == home_agent_params::BOOLEAN) {
      bool value;
      ok = home_agent_json::readBoolean(member.value, member.valueEnd, value);
    } else if (param.type == home_agent_params::INTEGER) {
      long value;
      ok = home_agent_json::readInteger(member.value, member.valueEnd, value) &&
           (!param.ranged || (value >= param.minimum && value <= param.maximum));
    } else if (param.type == home_agent_params::STRING) {
      ok = *member.value == '"';
    }
    if (ok) continue;
    writeErrorHead(HOME_AGENT_TYPE, param.nameP, param.nameLength);
    writeEscapedFlash(param.nameP, param.nameLength);
    port_->print(F(" must be "));
    port_->print(param.type == home_agent_params::INTEGER ? F("an ") : F("a "));
    writeFlash(home_agent_params::typeNameP(param.type));
    if (param.ranged) {
      port_->print(F(" from "));
      port_->print(param.minimum);
      port_->print(F(" to "));
      port_->print(param.maximum);
    }
    writeErrorEnd();
    return false;
  }
  return true;
}

void HomeAgentDevice::writeHello() {
  HomeAgentIdentity identity;
  memcpy_P(&identity, identity_, sizeof identity);
  writeAnswerHead(true);
  port_->print(F("\"result\":{\"device\":{\"id\":\""));
  writeEscapedFlash(identity.id);
  port_->print(F("\",\"kind\":\""));
  writeEscapedFlash(identity.kind);
  port_->print(F("\",\"model\":\""));
  writeEscapedFlash(identity.model);
  port_->print(F("\",\"firmware\":\""));
  writeEscapedFlash(identity.firmware);
  port_->print(F("\"},\"tools\":["));
  for (uint8_t index = 0; index < toolCount_; index++) {
    if (index > 0) port_->write(',');
    HomeAgentTool tool;
    memcpy_P(&tool, pgm_read_ptr(&tools_[index]), sizeof tool);
    writeTool(tool);
  }
  port_->print(F("],\"concurrent\":false,\"maxFrameBytes\":"));
  port_->print(HOME_AGENT_MAX_FRAME_BYTES);
  port_->write('}');
  writeEnd();
}

void HomeAgentDevice::writeTool(const HomeAgentTool &tool) {
  port_->print(F("{\"name\":\""));
  writeEscapedFlash(tool.name);
  port_->print(F("\",\"description\":\""));
  writeEscapedFlash(tool.description);
  port_->print(F("\",\"parameters\":"));
  writeParameters(tool.params);
  port_->print(F(",\"parallelSafe\":"));
  port_->print((tool.flags & HOME_AGENT_PARALLEL_SAFE) ? F("true") : F("false"));
  port_->print(F(",\"serial\":"));
  port_->print((tool.flags & HOME_AGENT_SERIAL) ? F("true") : F("false"));
  if (tool.flags & HOME_AGENT_CONFIRM) port_->print(F(",\"confirm\":true"));
  if (tool.flags & HOME_AGENT_READ_ONLY) port_->print(F(",\"readOnly\":true"));
  port_->write('}');
}

void HomeAgentDevice::writeParameters(const char *paramsP) {
  port_->print(F("{\"type\":\"object\",\"properties\":{"));
  ParamReader properties(paramsP);
  Param param;
  bool first = true;
  bool anyRequired = false;
  while (properties.next(param)) {
    if (!first) port_->write(',');
    first = false;
    anyRequired = anyRequired || param.required;
    port_->write('"');
    writeEscapedFlash(param.nameP, param.nameLength);
    port_->print(F("\":{\"type\":\""));
    writeFlash(home_agent_params::typeNameP(param.type));
    port_->write('"');
    if (param.ranged) {
      port_->print(F(",\"minimum\":"));
      port_->print(param.minimum);
      port_->print(F(",\"maximum\":"));
      port_->print(param.maximum);
    }
    port_->write('}');
  }
  port_->write('}');
  if (anyRequired) {
    port_->print(F(",\"required\":["));
    ParamReader required(paramsP);
    first = true;
    while (required.next(param)) {
      if (!param.required) continue;
      if (!first) port_->write(',');
      first = false;
      port_->write('"');
      writeEscapedFlash(param.nameP, param.nameLength);
      port_->write('"');
    }
    port_->write(']');
  }
  port_->write('}');
}
