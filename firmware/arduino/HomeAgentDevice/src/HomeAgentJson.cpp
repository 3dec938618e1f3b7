#include "HomeAgentJson.h"

#include <avr/pgmspace.h>
#include <limits.h>
#include <string.h>

namespace home_agent_json {

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

static bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

const char *skipSpace(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return p;
}

// p at the opening quote; returns the position after the closing quote.
static const char *skipString(const char *p) {
  p++;
  for (;;) {
    char c = *p;
    if (c == '"') return p + 1;
    if (c == '\0' || (uint8_t)c < 0x20) return nullptr;
    if (c == '\\') {
      char e = p[1];
      if (e == 'u') {
        for (uint8_t i = 2; i < 6; i++)
          if (!isHex(p[i])) return nullptr;
        p += 6;
        continue;
      }
      if (e == '\0' || strchr_P(PSTR("\"\\/bfnrt"), e) == nullptr) return nullptr;
      p += 2;
      continue;
    }
    p++;
  }
}

// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
static const char *skipNumber(const char *p) {
  if (*p == '-') p++;
  if (*p == '0')
    p++;
  else if (isDigit(*p))
    while (isDigit(*p)) p++;
  else
    return nullptr;
  if (*p == '.') {
    p++;
    if (!isDigit(*p)) return nullptr;
    while (isDigit(*p)) p++;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!isDigit(*p)) return nullptr;
    while (isDigit(*p)) p++;
  }
  return p;
}

static const char *skipLiteral(const char *p) {
  if (strncmp_P(p, PSTR("true"), 4) == 0) return p + 4;
  if (strncmp_P(p, PSTR("false"), 5) == 0) return p + 5;
  if (strncmp_P(p, PSTR("null"), 4) == 0) return p + 4;
  return nullptr;
}

// Reads `"key"` and `:` of an object member; returns the position of its value.
static const char *skipKey(const char *p) {
  if (*p != '"') return nullptr;
  p = skipString(p);
  if (p == nullptr) return nullptr;
  p = skipSpace(p);
  if (*p != ':') return nullptr;
  return skipSpace(p + 1);
}

const char *skipValue(const char *p) {
  uint32_t objects = 0;  // one bit per open container: 1 = object, 0 = array
  uint8_t depth = 0;
  p = skipSpace(p);
  for (;;) {
    // A value starts at p.
    char c = *p;
    if (c == '{' || c == '[') {
      if (depth == 32) return nullptr;
      bool object = c == '{';
      objects = (objects << 1) | (object ? 1 : 0);
      depth++;
      p = skipSpace(p + 1);
      if (*p == (object ? '}' : ']')) {
        p++;
        objects >>= 1;
        depth--;
      } else {
        if (object) p = skipKey(p);
        if (p == nullptr) return nullptr;
        continue;
      }
    } else if (c == '"') {
      p = skipString(p);
    } else if (c == '-' || isDigit(c)) {
      p = skipNumber(p);
    } else {
      p = skipLiteral(p);
    }
    if (p == nullptr) return nullptr;
    // After a value: close containers, or move to the next element.
    for (;;) {
      if (depth == 0) return p;
      p = skipSpace(p);
      bool object = (objects & 1) != 0;
      if (*p == ',') {
        p = skipSpace(p + 1);
        if (object) p = skipKey(p);
        if (p == nullptr) return nullptr;
        break;
      }
      if (*p != (object ? '}' : ']')) return nullptr;
      p++;
      objects >>= 1;
      depth--;
    }
  }
}

ObjectReader::ObjectReader(const char *p) : p_(skipSpace(p)), first_(true), broken_(*skipSpace(p) != '{') {
  if (!broken_) p_++;
}

int8_t ObjectReader::next(Member &member) {
  if (broken_) return -1;
  p_ = skipSpace(p_);
  if (*p_ == '}') {
    p_++;
    return 0;
  }
  if (!first_) {
    if (*p_ != ',') return broken_ = true, -1;
    p_ = skipSpace(p_ + 1);
  }
  first_ = false;
  if (*p_ != '"') return broken_ = true, -1;
  const char *keyEnd = skipString(p_);
  if (keyEnd == nullptr || keyEnd - p_ - 2 > 255) return broken_ = true, -1;
  member.key = p_ + 1;
  member.keyLength = (uint8_t)(keyEnd - p_ - 2);
  const char *value = skipKey(p_);
  if (value == nullptr) return broken_ = true, -1;
  const char *valueEnd = skipValue(value);
  if (valueEnd == nullptr) return broken_ = true, -1;
  member.value = value;
  member.valueEnd = valueEnd;
  p_ = valueEnd;
  return 1;
}

bool keyIs(const Member &member, const char *nameP, uint8_t nameLength) {
  return member.keyLength == nameLength && strncmp_P(member.key, nameP, nameLength) == 0;
}

bool readInteger(const char *value, const char *valueEnd, long &out) {
  const char *p = value;
  bool negative = *p == '-';
  if (negative) p++;
  if (p == valueEnd || !isDigit(*p) || (*p == '0' && p + 1 != valueEnd)) return false;
  unsigned long magnitude = 0;
  for (; p < valueEnd; p++) {
    if (!isDigit(*p)) return false;
    unsigned long digit = (unsigned long)(*p - '0');
    if (magnitude > (ULONG_MAX - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  if (negative ? magnitude > (unsigned long)LONG_MAX + 1 : magnitude > (unsigned long)LONG_MAX) return false;
  out = negative ? (long)(0 - magnitude) : (long)magnitude;
  return true;
}

bool readBoolean(const char *value, const char *valueEnd, bool &out) {
  size_t length = (size_t)(valueEnd - value);
  if (length == 4 && strncmp_P(value, PSTR("true"), 4) == 0) return out = true, true;
  if (length == 5 && strncmp_P(value, PSTR("false"), 5) == 0) return out = false, true;
  return false;
}

static uint8_t hexValue(char c) {
  if (isDigit(c)) return (uint8_t)(c - '0');
  return (uint8_t)((c | 0x20) - 'a' + 10);
}

int unescapeString(const char *value, const char *valueEnd, char *buffer, size_t size) {
  if (*value != '"' || size == 0) return -1;
  size_t length = 0;
  auto put = [&](char c) {
    if (length + 1 < size) buffer[length] = c;
    length++;
  };
  for (const char *p = value + 1; p < valueEnd - 1; p++) {
    if (*p != '\\') {
      put(*p);
      continue;
    }
    char e = *++p;
    if (e == 'u') {
      // Written out as UTF-8; a surrogate half becomes '?' (no code point survives alone).
      unsigned code = 0;
      for (uint8_t i = 1; i <= 4; i++) code = (code << 4) | hexValue(p[i]);
      p += 4;
      if (code < 0x80) {
        put((char)code);
      } else if (code < 0x800) {
        put((char)(0xC0 | (code >> 6)));
        put((char)(0x80 | (code & 0x3F)));
      } else if (code >= 0xD800 && code <= 0xDFFF) {
        put('?');
      } else {
        put((char)(0xE0 | (code >> 12)));
        put((char)(0x80 | ((code >> 6) & 0x3F)));
        put((char)(0x80 | (code & 0x3F)));
      }
      continue;
    }
    put(e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e);
  }
  buffer[length < size ? length : size - 1] = '\0';
  return length > 32767 ? 32767 : (int)length;
}

bool copyId(const char *value, const char *valueEnd, char *digits) {
  size_t length = (size_t)(valueEnd - value);
  if (length == 0 || length > 16 || (value[0] == '0' && length > 1)) return false;
  for (size_t i = 0; i < length; i++)
    if (!isDigit(value[i])) return false;
  // 16 digits fit only up to 9007199254740991, the largest integer a JavaScript host counts to exactly.
  if (length == 16 && strncmp_P(value, PSTR("9007199254740991"), 16) > 0) return false;
  memcpy(digits, value, length);
  digits[length] = '\0';
  return true;
}

bool leadingId(const char *line, char *digits) {
  const char *p = skipSpace(line);
  if (*p != '{') return false;
  p = skipSpace(p + 1);
  if (strncmp_P(p, PSTR("\"id\""), 4) != 0) return false;
  p = skipSpace(p + 4);
  if (*p != ':') return false;
  p = skipSpace(p + 1);
  const char *end = p;
  while (isDigit(*end)) end++;
  const char *after = skipSpace(end);
  if (*after != ',' && *after != '}') return false;
  return copyId(p, end, digits);
}

}  // namespace home_agent_json
