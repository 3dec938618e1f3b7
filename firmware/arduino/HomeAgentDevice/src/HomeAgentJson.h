// A small JSON reader over a NUL-terminated line held in RAM: it validates and skips values without
// copying them and without recursion (nesting is tracked in a 32-bit stack), so it needs a few bytes.
#ifndef HOME_AGENT_JSON_H
#define HOME_AGENT_JSON_H

#include <stddef.h>
#include <stdint.h>

namespace home_agent_json {

/** One member of an object: the key's text (between its quotes, escapes left as written) and its value. */
struct Member {
  const char *key;
  uint8_t keyLength;
  const char *value;
  const char *valueEnd;
};

const char *skipSpace(const char *p);
/** The end of the JSON value starting at `p`, or nullptr when it is not valid JSON (or nests deeper than 32). */
const char *skipValue(const char *p);

/** Reads the members of the object starting at `p` (which must be `{`). */
class ObjectReader {
 public:
  explicit ObjectReader(const char *p);
  /** 1: `member` filled; 0: the object ended (end() is after its `}`); -1: not valid JSON. */
  int8_t next(Member &member);
  const char *end() const { return p_; }

 private:
  const char *p_;
  bool first_;
  bool broken_;
};

/** Whether the member's key is `nameP` (a string in flash). */
bool keyIs(const Member &member, const char *nameP, uint8_t nameLength);
/** Parses an integer value (no fraction, no exponent) that fits a long. */
bool readInteger(const char *value, const char *valueEnd, long &out);
/** Whether the value is the literal `true` or `false`; sets `out`. */
bool readBoolean(const char *value, const char *valueEnd, bool &out);
/** Copies a string value, unescaped, into `buffer`; returns its full length (may exceed size - 1) or -1. */
int unescapeString(const char *value, const char *valueEnd, char *buffer, size_t size);
/**
 * Reads the request id at the very start of a line, `{"id":123,` (the host writes it first), into
 * `digits` (17 bytes). Works on a line cut short by the buffer's end, so an overlong request is
 * still answered with its id.
 */
bool leadingId(const char *line, char *digits);
/** Copies an id value (a non-negative integer of at most 16 digits) into `digits`; false if it is not one. */
bool copyId(const char *value, const char *valueEnd, char *digits);

}  // namespace home_agent_json

#endif
