// Reads a tool's parameter list, written by the sketch as one flash string:
//   "channel integer 1..4 required, on boolean required"
// Each entry: a name, a type (boolean, integer or string), for integers an optional range
// `min..max`, and the word `required` when the caller must give it. Entries are separated by commas.
#ifndef HOME_AGENT_PARAMS_H
#define HOME_AGENT_PARAMS_H

#include <stdint.h>

namespace home_agent_params {

enum Type : uint8_t { BOOLEAN, INTEGER, STRING, UNKNOWN };

/** One declared argument; its name stays in flash. */
struct Param {
  const char *nameP;
  uint8_t nameLength;
  Type type;
  bool ranged;
  long minimum;
  long maximum;
  bool required;
};

/** Walks the entries of a parameter list in flash. */
class ParamReader {
 public:
  explicit ParamReader(const char *specP) : p_(specP) {}
  /** Fills `param` with the next entry; false at the end of the list. */
  bool next(Param &param);

 private:
  const char *p_;
};

/** The JSON Schema type word of a parameter type, in flash ("boolean", "integer", "string", "unknown"). */
const char *typeNameP(Type type);

}  // namespace home_agent_params

#endif
