// Lock: a door strike or motor lock driven from pin 8. Kind `lock`, the same tools as Home Agent's
// simulated lock: `set {locked}` (declared `confirm`; by its kind Home Agent also asks the approval
// PIN before every call) and `get`, both answering {locked}. Starts locked after every reset.
#include <Arduino.h>
#include <HomeAgentDevice.h>

// Each board needs its own id: flash a second lock with "uno-lock-2".
#define HOME_AGENT_ID "uno-lock-1"

const uint8_t LOCK_PIN = 8;
// Many strikes open when their input is pulled high; set this to true for those driven low.
const bool ACTIVE_LOW = false;

bool locked = true;

// The pin drives the strike open when unlocked.
void applyLock() { digitalWrite(LOCK_PIN, !locked != ACTIVE_LOW ? HIGH : LOW); }

void reportLock(HomeAgentCall &call) { call.result(F("locked"), locked); }

void setLock(HomeAgentCall &call) {
  locked = call.boolean(F("locked"));  // checked: a boolean, given
  applyLock();
  reportLock(call);
}

void getLock(HomeAgentCall &call) { reportLock(call); }

HOME_AGENT_IDENTITY(identity, HOME_AGENT_ID, "lock", "HomeAgent Lock (Uno)", "1.0.0");
HOME_AGENT_TOOL(setTool, "set", "Lock (locked: true) or unlock (locked: false) the door.", "locked boolean required",
                HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_CONFIRM, setLock);
HOME_AGENT_TOOL(getTool, "get", "Read whether the door is locked.", "", HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_READ_ONLY,
                getLock);
HOME_AGENT_TOOLS(tools, &setTool, &getTool);
HomeAgentDevice device(&identity, tools, HOME_AGENT_COUNT(tools));

void setup() {
  pinMode(LOCK_PIN, OUTPUT);
  applyLock();
  device.begin(Serial, 115200);
}

void loop() { device.poll(); }
