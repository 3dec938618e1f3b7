/*
 * Runs an ATmega328P firmware (ELF) in simavr with UART0 on a pseudo-terminal, paced to a real
 * 16 MHz clock, and takes commands on stdin so a test can act on the board's pins:
 *
 *   pin <port><bit> <0|1>   drive an input pin (a button), e.g. `pin D2 0`
 *   adc <channel> <mV>      put a voltage on an analog input, e.g. `adc 0 750`
 *   peek <address>          print `peek <address> <value>` (a data-space byte, e.g. 0x88 = OCR1AL)
 *   stack-peak <address>    print `stack-peak <bytes>`: how deep the stack has ever reached, found as
 *                           the lowest byte above <address> (the end of static RAM) that is no
 *                           longer the paint the harness put in RAM before the chip started
 *   freeze-on-request       stop the chip as soon as the next `\n` reaches UART0 (a request is on the
 *                           chip, unanswered) and print `frozen`; `thaw` lets it run again
 *   reset                   reset the chip (its reset button) while the pseudo-terminal stays open
 *
 * Prints `pty <slave path>` once the UART is wired (the fixed /tmp/simavr-uart0 link that uart_pty
 * also makes is shared by every simavr on the machine, so it is never used). Exits when stdin ends,
 * so it never outlives the process that started it; uart_pty_stop() can hang, so it is not called.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <simavr/avr_adc.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/parts/uart_pty.h>

static uart_pty_t uart;
/* What RAM holds before the chip starts; the stack overwrites it as it grows. */
#define PAINT 0xA5
/* Written by uart_pty's thread (which feeds the UART), read by the main loop. */
static volatile int freeze_armed = 0;
static volatile int frozen = 0;

static void on_uart_byte(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (freeze_armed && value == '\n') {
    freeze_armed = 0;
    frozen = 1;
  }
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void run_command(avr_t *avr, char *line) {
  char port;
  unsigned bit, level, channel, millivolts, address;
  if (sscanf(line, "pin %c%u %u", &port, &bit, &level) == 3 && bit < 8) {
    avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit);
    if (irq) avr_raise_irq(irq, level ? 1 : 0);
    printf("pin %c%u %u\n", port, bit, level ? 1 : 0);
  } else if (sscanf(line, "adc %u %u", &channel, &millivolts) == 2 && channel < 8) {
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + channel), millivolts);
    printf("adc %u %u\n", channel, millivolts);
  } else if (strcmp(line, "freeze-on-request") == 0) {
    freeze_armed = 1;
    printf("armed\n");
  } else if (strcmp(line, "reset") == 0) {
    avr_reset(avr);
    freeze_armed = 0;
    frozen = 0;
    printf("reset\n");
  } else if (strcmp(line, "thaw") == 0) {
    frozen = 0;
    printf("thawed\n");
  } else if (sscanf(line, "stack-peak %i", &address) == 1 && address <= avr->ramend) {
    unsigned lowest = address;
    while (lowest <= avr->ramend && avr->data[lowest] == PAINT) lowest++;
    printf("stack-peak %u\n", avr->ramend + 1 - lowest);
  } else if (sscanf(line, "peek %i", &address) == 1 && address <= avr->ramend) {
    printf("peek 0x%02x %u\n", address, avr->data[address]);
  } else {
    printf("error unknown command: %s\n", line);
  }
  fflush(stdout);
}

/* Reads whatever stdin holds without blocking; returns 0 when stdin has ended. */
static int read_commands(avr_t *avr) {
  static char buffer[256];
  static size_t length = 0;
  for (;;) {
    ssize_t count = read(STDIN_FILENO, buffer + length, sizeof(buffer) - 1 - length);
    if (count == 0) return 0;
    if (count < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : 0;
    length += (size_t)count;
    char *newline;
    while ((newline = memchr(buffer, '\n', length)) != NULL) {
      *newline = '\0';
      run_command(avr, buffer);
      length -= (size_t)(newline + 1 - buffer);
      memmove(buffer, newline + 1, length);
    }
    if (length == sizeof(buffer) - 1) length = 0; /* an over-long line is not a command: drop it */
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FIRMWARE.elf\n", argv[0]);
    return 2;
  }
  elf_firmware_t firmware;
  memset(&firmware, 0, sizeof firmware);
  if (elf_read_firmware(argv[1], &firmware) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  avr_t *avr = avr_make_mcu_by_name("atmega328p");
  if (!avr) return 2;
  avr_init(avr);
  avr->frequency = 16000000;
  avr->vcc = avr->avcc = avr->aref = 5000;
  avr_load_firmware(avr, &firmware);
  /* Internal SRAM starts after the 32 registers and 224 I/O registers (0x100 on the ATmega328P). */
  memset(avr->data + 0x100, PAINT, avr->ramend + 1 - 0x100);
  uart_pty_init(avr, &uart);
  uart_pty_connect(&uart, '0');
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), on_uart_byte, NULL);
  printf("pty %s\n", uart.port[0].slavename);
  fflush(stdout);
  fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);

  /* Pace: cycle n is due at start + n * 62.5 ns. A debt over 20 ms (the host was busy) is forgiven
     instead of being caught up in a burst faster than the chip could run. */
  uint64_t start = now_ns();
  uint64_t origin_cycle = avr->cycle;
  unsigned steps = 0;
  int reported_frozen = 0;
  for (;;) {
    if (frozen) {
      if (!reported_frozen) {
        printf("frozen\n");
        fflush(stdout);
        reported_frozen = 1;
      }
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
      if (!read_commands(avr)) return 0;
      start = now_ns();
      origin_cycle = avr->cycle;
      continue;
    }
    reported_frozen = 0;
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "firmware stopped (%s)\n", state == cpu_Done ? "done" : "crashed");
      return 1;
    }
    if (++steps < 2048) continue;
    steps = 0;
    if (!read_commands(avr)) return 0;
    uint64_t due = start + (avr->cycle - origin_cycle) * 125 / 2;
    uint64_t now = now_ns();
    if (due > now + 1000000) {
      uint64_t wait = due - now;
      struct timespec pause = {(time_t)(wait / 1000000000ull), (long)(wait % 1000000000ull)};
      nanosleep(&pause, NULL);
    } else if (now > due + 20000000) {
      start = now;
      origin_cycle = avr->cycle;
    }
  }
}
