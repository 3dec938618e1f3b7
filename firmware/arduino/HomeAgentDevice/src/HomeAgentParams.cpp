#include "HomeAgentParams.h"

#include <avr/pgmspace.h>

namespace home_agent_params {

static char at(const char *p) { return (char)pgm_read_byte(p); }

static const char *skipBlanks(const char *p) {
  while (at(p) == ' ') p++;
  return p;
}

// A word runs to the next blank, comma or end of the list.
static uint8_t wordLength(const char *p) {
  uint8_t length = 0;
  for (char c = at(p); c != '\0' && c != ' ' && c != ','; c = at(++p)) length++;
  return length;
}

static bool wordIs(const char *p, uint8_t length, const char *wordP) {
  uint8_t i = 0;
  for (; i < length; i++)
    if (at(p + i) != (char)pgm_read_byte(wordP + i)) return false;
  return pgm_read_byte(wordP + i) == 0;
}

static const char *readLong(const char *p, long &out) {
  bool negative = at(p) == '-';
  if (negative) p++;
  long value = 0;
  while (at(p) >= '0' && at(p) <= '9') value = value * 10 + (at(p++) - '0');
  out = negative ? -value : value;
  return p;
}

static const char TYPE_BOOLEAN[] PROGMEM = "boolean";
static const char TYPE_INTEGER[] PROGMEM = "integer";
static const char TYPE_STRING[] PROGMEM = "string";
static const char TYPE_UNKNOWN[] PROGMEM = "unknown";
static const char WORD_REQUIRED[] PROGMEM = "required";

const char *typeNameP(Type type) {
  switch (type) {
    case BOOLEAN:
      return TYPE_BOOLEAN;
    case INTEGER:
      return TYPE_INTEGER;
    case STRING:
      return TYPE_STRING;
    default:
      return TYPE_UNKNOWN;
  }
}

bool ParamReader::next(Param &param) {
  p_ = skipBlanks(p_);
  if (at(p_) == ',') p_ = skipBlanks(p_ + 1);
  if (at(p_) == '\0') return false;
  param.nameP = p_;
  param.nameLength = wordLength(p_);
  p_ = skipBlanks(p_ + param.nameLength);
  uint8_t length = wordLength(p_);
  param.type = wordIs(p_, length, TYPE_BOOLEAN)   ? BOOLEAN
               : wordIs(p_, length, TYPE_INTEGER) ? INTEGER
               : wordIs(p_, length, TYPE_STRING)  ? STRING
                                                  : UNKNOWN;
  p_ = skipBlanks(p_ + length);
  param.ranged = false;
  param.required = false;
  // The rest of the entry: a range `min..max` and/or `required`, in any order.
  while (at(p_) != '\0' && at(p_) != ',') {
    length = wordLength(p_);
    if (wordIs(p_, length, WORD_REQUIRED)) {
      param.required = true;
      p_ += length;
    } else {
      const char *end = p_ + length;
      const char *dots = readLong(p_, param.minimum);
      if (at(dots) == '.' && at(dots + 1) == '.' && readLong(dots + 2, param.maximum) == end) {
        param.ranged = true;
      } else {
        // Not a word this list knows: the hello states the type as unknown, which the host refuses.
        param.type = UNKNOWN;
      }
      p_ = end;
    }
    p_ = skipBlanks(p_);
  }
  return true;
}

}  // namespace home_agent_params
