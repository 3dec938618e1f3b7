// Lamp: an LED (or a MOSFET driving an LED strip) on a PWM pin, switched and dimmed by Home Agent.
// Kind `lamp`, tools `set {on, brightness}` and `get`, each answering {on, brightness}: the same
// declaration as Home Agent's simulated lamp, so the agent treats both alike.
#include <Arduino.h>
#include <HomeAgentDevice.h>

// Each board needs its own id: flash a second lamp with "uno-lamp-2".
#define HOME_AGENT_ID "uno-lamp-1"

const uint8_t LED_PIN = 9;  // a PWM pin (marked ~ on the Uno and Nano)

bool lampOn = false;
long brightness = 100;  // percent

void applyLamp() { analogWrite(LED_PIN, lampOn ? (int)(brightness * 255 / 100) : 0); }

void reportLamp(HomeAgentCall &call) {
  call.result(F("on"), lampOn);
  call.result(F("brightness"), brightness);
}

void setLamp(HomeAgentCall &call) {
  // The library has already checked the types and the range against the declaration below.
  if (!call.has(F("on")) && !call.has(F("brightness")))
    return call.fail(HOME_AGENT_REQUIRED, F("on"), F("give on and/or brightness"));
  if (call.has(F("on"))) lampOn = call.boolean(F("on"));
  if (call.has(F("brightness"))) brightness = call.integer(F("brightness"));
  applyLamp();
  reportLamp(call);
}

void getLamp(HomeAgentCall &call) { reportLamp(call); }

HOME_AGENT_IDENTITY(identity, HOME_AGENT_ID, "lamp", "HomeAgent Lamp (Uno)", "1.0.0");
HOME_AGENT_TOOL(setTool, "set", "Switch the lamp on or off and/or set its brightness (0–100).",
                "on boolean, brightness integer 0..100", HOME_AGENT_PARALLEL_SAFE, setLamp);
HOME_AGENT_TOOL(getTool, "get", "Read whether the lamp is on and its brightness.", "",
                HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_READ_ONLY, getLamp);
HOME_AGENT_TOOLS(tools, &setTool, &getTool);
HomeAgentDevice device(&identity, tools, HOME_AGENT_COUNT(tools));

void setup() {
  pinMode(LED_PIN, OUTPUT);
  applyLamp();
  device.begin(Serial, 115200);
}

void loop() { device.poll(); }
