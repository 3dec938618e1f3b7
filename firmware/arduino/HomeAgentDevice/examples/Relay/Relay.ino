// Relay: a four-channel relay module on pins 4–7. Kind `relay`, the same tools as Home Agent's
// AT-RELAY-4 profile: `set {channel 1–4, on}` (declared `confirm`: a relay may switch mains, so
// the person approves each switch) and `get {channel}`, both answering {channel, on}.
#include <Arduino.h>
#include <HomeAgentDevice.h>

// Each board needs its own id: flash a second board with "uno-relay-2".
#define HOME_AGENT_ID "uno-relay-1"

const uint8_t RELAY_PINS[4] = {4, 5, 6, 7};
// Many relay modules switch on when their input is pulled low; set this to true for those.
const bool ACTIVE_LOW = false;

bool relays[4] = {false, false, false, false};

void applyRelay(uint8_t index) { digitalWrite(RELAY_PINS[index], relays[index] != ACTIVE_LOW ? HIGH : LOW); }

void reportRelay(HomeAgentCall &call, long channel) {
  call.result(F("channel"), channel);
  call.result(F("on"), relays[channel - 1]);
}

void setRelay(HomeAgentCall &call) {
  long channel = call.integer(F("channel"));  // checked: 1..4, given
  relays[channel - 1] = call.boolean(F("on"));
  applyRelay(channel - 1);
  reportRelay(call, channel);
}

void getRelay(HomeAgentCall &call) { reportRelay(call, call.integer(F("channel"))); }

HOME_AGENT_IDENTITY(identity, HOME_AGENT_ID, "relay", "HomeAgent Relay 4 (Uno)", "1.0.0");
HOME_AGENT_TOOL(setTool, "set", "Switch one relay channel (1–4) on or off.", "channel integer 1..4 required, on boolean required",
                HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_CONFIRM, setRelay);
HOME_AGENT_TOOL(getTool, "get", "Read whether one relay channel (1–4) is on.", "channel integer 1..4 required",
                HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_READ_ONLY, getRelay);
HOME_AGENT_TOOLS(tools, &setTool, &getTool);
HomeAgentDevice device(&identity, tools, HOME_AGENT_COUNT(tools));

void setup() {
  for (uint8_t index = 0; index < 4; index++) {
    pinMode(RELAY_PINS[index], OUTPUT);
    applyRelay(index);
  }
  device.begin(Serial, 115200);
}

void loop() { device.poll(); }
