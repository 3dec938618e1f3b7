// A test sketch that reaches what the examples do not: string arguments, decimals of either sign,
// and a tool declared `serial`. Built and run by test/firmware/library-features.test.ts.
#include <Arduino.h>
#include <HomeAgentDevice.h>

#define HOME_AGENT_ID "probe-1"

void echo(HomeAgentCall &call) {
  char text[12];
  int length = call.text(F("text"), text, sizeof text);
  call.result(F("text"), (const char *)text);
  call.result(F("length"), length);
}

void decimal(HomeAgentCall &call) {
  call.addDecimal(F("value"), call.integer(F("value")), (uint8_t)call.integer(F("places")));
}

void refuse(HomeAgentCall &call) {
  call.fail(HOME_AGENT_DENIED, nullptr, F("a \"quoted\" refusal"));
  call.result(F("ignored"), true);  // too late after fail: nothing more is written
}

HOME_AGENT_IDENTITY(identity, HOME_AGENT_ID, "probe", "Probe", "0.0.1");
HOME_AGENT_TOOL(echoTool, "echo", "Echo a text.", "text string required", HOME_AGENT_PARALLEL_SAFE, echo);
HOME_AGENT_TOOL(decimalTool, "decimal", "Write a decimal.", "value integer required, places integer 0..3 required",
                HOME_AGENT_SERIAL, decimal);
HOME_AGENT_TOOL(refuseTool, "refuse", "Always refuse.", "", HOME_AGENT_READ_ONLY, refuse);
HOME_AGENT_TOOLS(tools, &echoTool, &decimalTool, &refuseTool);
HomeAgentDevice device(&identity, tools, HOME_AGENT_COUNT(tools));

void setup() { device.begin(Serial, 115200); }

void loop() { device.poll(); }
