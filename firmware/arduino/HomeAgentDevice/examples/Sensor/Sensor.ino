// Sensor: a TMP36-style temperature sensor on A0 and a push button on pin 2. Kind `sensor`:
// the tool `read` answers {celsius, raw}; pressing or releasing the button sends a `button`
// event {pressed}, which the app shows as it happens.
#include <Arduino.h>
#include <HomeAgentDevice.h>

// Each board needs its own id: flash a second sensor with "uno-sensor-2".
#define HOME_AGENT_ID "uno-sensor-1"

const uint8_t TEMPERATURE_PIN = A0;
const uint8_t BUTTON_PIN = 2;  // to ground when pressed (the internal pull-up holds it high)
const unsigned long DEBOUNCE_MS = 20;

bool pressed = false;
bool lastReading = false;
unsigned long lastChange = 0;

void readTemperature(HomeAgentCall &call) {
  // TMP36: 500 mV at 0 °C, 10 mV per °C; the ADC reads 0–1023 for 0–5 V.
  long raw = analogRead(TEMPERATURE_PIN);
  long tenthsOfMillivolt = raw * 50000L / 1023;
  call.addDecimal(F("celsius"), (tenthsOfMillivolt - 5000) / 10, 1);
  call.result(F("raw"), raw);
}

HOME_AGENT_IDENTITY(identity, HOME_AGENT_ID, "sensor", "HomeAgent Sensor (Uno)", "1.0.0");
HOME_AGENT_TOOL(readTool, "read", "Read the temperature (°C) of the analog sensor.", "",
                HOME_AGENT_PARALLEL_SAFE | HOME_AGENT_READ_ONLY, readTemperature);
HOME_AGENT_TOOLS(tools, &readTool);
HomeAgentDevice device(&identity, tools, HOME_AGENT_COUNT(tools));

void setup() {
  pinMode(BUTTON_PIN, INPUT_PULLUP);
  pressed = lastReading = digitalRead(BUTTON_PIN) == LOW;
  device.begin(Serial, 115200);
}

void loop() {
  device.poll();
  bool reading = digitalRead(BUTTON_PIN) == LOW;
  if (reading != lastReading) {
    lastReading = reading;
    lastChange = millis();
  }
  // A press counts once the contact has stopped bouncing.
  if (reading != pressed && millis() - lastChange >= DEBOUNCE_MS) {
    pressed = reading;
    HomeAgentEvent event(device, F("button"));
    event.add(F("pressed"), pressed);
    event.send();
  }
}
