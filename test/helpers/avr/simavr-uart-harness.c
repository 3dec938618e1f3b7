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
 *   uart-byte-cycles        print `uart-byte-cycles <n>`: how many cycles UART0 takes for one byte
 *
 * Prints `pty <slave path>` once the UART is wired. Exits when stdin ends, so it never outlives the
 * process that started it.
 *
 * UART0 is carried the way a wire carries it, in this loop (not by simavr's uart_pty part, whose
 * thread passes bytes on only at its 1 kHz timer and 500 µs select, up to 1.5 ms late a round trip):
 * a byte the host writes reaches the UART as soon as the loop sees it, and a byte the chip sends
 * reaches the host when its stop bit ends. simavr 1.6 frames every byte in 11 bits (it always counts
 * a parity bit); the sketches use 8N1, 10 bits, so the harness sets the UART's byte time to 10 bits.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/prctl.h>
#include <termios.h>
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

/* What RAM holds before the chip starts; the stack overwrites it as it grows. */
#define PAINT 0xA5
static int freeze_armed = 0;
static int frozen = 0;

/* UART0's wire: the pseudo-terminal's master side, what the host wrote and the chip has not yet
   taken, and what the chip sent, each byte with the cycle its stop bit ends. */
static int pty_master = -1;
static avr_uart_t *uart0;
static avr_irq_t *uart0_input;
static int uart0_room = 0; /* the UART's receive FIFO has room (its XON / XOFF) */
static uint8_t from_host[512];
static size_t from_host_length = 0, from_host_taken = 0;
#define TO_HOST_SIZE 256
static struct {
  uint8_t byte;
  avr_cycle_count_t due;
} to_host[TO_HOST_SIZE];
static unsigned to_host_head = 0, to_host_tail = 0;
/* The byte time the harness last set (10 bits) and the one simavr computed from the baud (11 bits). */
static avr_cycle_count_t framed_cycles = 0;

static void on_uart_room(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  uart0_room = param != NULL;
}

/* simavr recomputes the byte time whenever the sketch sets the baud rate: 1 start, 8 data, a
   parity bit that 8N1 does not have, 1 stop. Called every few hundred instructions. */
static void frame_uart0_8n1(void) {
  if (uart0->cycles_per_byte == framed_cycles || uart0->cycles_per_byte % 11 != 0) return;
  framed_cycles = uart0->cycles_per_byte / 11 * 10;
  uart0->cycles_per_byte = framed_cycles;
}

static void write_to_host(avr_t *avr) {
  while (to_host_head != to_host_tail && to_host[to_host_head].due <= avr->cycle) {
    uint8_t byte = to_host[to_host_head].byte;
    to_host_head = (to_host_head + 1) % TO_HOST_SIZE;
    /* A byte the pseudo-terminal does not take (a host that reads nothing filled it) is lost, as on a wire. */
    if (write(pty_master, &byte, 1) < 0) continue;
  }
}

static avr_cycle_count_t on_stop_bit(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)when;
  (void)param;
  write_to_host(avr);
  return to_host_head != to_host_tail ? to_host[to_host_head].due : 0;
}

/* simavr raises a sent byte as the chip writes UDR0, when its start bit begins. */
static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  avr_t *avr = param;
  unsigned next = (to_host_tail + 1) % TO_HOST_SIZE;
  if (next == to_host_head) return; /* cannot happen at one byte per byte time; dropped if it did */
  int idle = to_host_head == to_host_tail;
  to_host[to_host_tail].byte = (uint8_t)value;
  to_host[to_host_tail].due = avr->cycle + uart0->cycles_per_byte;
  to_host_tail = next;
  if (idle) avr_cycle_timer_register(avr, uart0->cycles_per_byte, on_stop_bit, NULL);
}

/* Hands the UART what the host wrote, as fast as its receive FIFO takes it. */
static void read_from_host(void) {
  if (frozen) return;
  if (from_host_taken == from_host_length) {
    ssize_t count = read(pty_master, from_host, sizeof from_host);
    if (count <= 0) return;
    from_host_length = (size_t)count;
    from_host_taken = 0;
  }
  while (uart0_room && !frozen && from_host_taken < from_host_length) avr_raise_irq(uart0_input, from_host[from_host_taken++]);
}

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
  } else if (strcmp(line, "uart-byte-cycles") == 0) {
    printf("uart-byte-cycles %lu\n", (unsigned long)uart0->cycles_per_byte);
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
  for (avr_io_t *io = avr->io_port; io != NULL; io = io->next)
    if (strcmp(io->kind, "uart") == 0 && ((avr_uart_t *)io)->name == '0') uart0 = (avr_uart_t *)io;
  if (uart0 == NULL) return 2;
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_STDIO; /* the bytes go to the host, not to this process's output */
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  uart0_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  avr_irq_register_notify(uart0_input, on_uart_byte, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_output, avr);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_uart_room, avr);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_uart_room, NULL);

  /* The slave side stays open here too, so the master never reads as hung up while no host has it. */
  int pty_slave;
  char slave_name[128];
  if (openpty(&pty_master, &pty_slave, slave_name, NULL, NULL) != 0) {
    fprintf(stderr, "cannot open a pseudo-terminal: %s\n", strerror(errno));
    return 2;
  }
  struct termios raw;
  tcgetattr(pty_master, &raw);
  cfmakeraw(&raw);
  tcsetattr(pty_master, TCSANOW, &raw);
  fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
  printf("pty %s\n", slave_name);
  fflush(stdout);
  fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
  /* Waits end within a few microseconds of their time instead of the default 50. */
  prctl(PR_SET_TIMERSLACK, 1UL);

  /* Pace: cycle n is due at start + n * 62.5 ns. The chip runs at most LEAD_NS ahead of its due
     time, then waits for it, or for the host's bytes or a command, whichever comes first. A debt over
     20 ms (the host was busy) is forgiven instead of being caught up in a burst faster than the chip
     could run. */
  const uint64_t LEAD_NS = 250000;
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
    if (++steps < 512) continue;
    steps = 0;
    frame_uart0_8n1();
    read_from_host();
    if (!read_commands(avr)) return 0;
    uint64_t due = start + (avr->cycle - origin_cycle) * 125 / 2;
    uint64_t now = now_ns();
    if (due > now + LEAD_NS) {
      uint64_t wait = due - now;
      struct timespec timeout = {(time_t)(wait / 1000000000ull), (long)(wait % 1000000000ull)};
      struct pollfd inputs[2] = {{STDIN_FILENO, POLLIN, 0}, {pty_master, POLLIN, 0}};
      /* The host's bytes wake the chip only once it has taken the last ones. */
      ppoll(inputs, from_host_taken == from_host_length ? 2 : 1, &timeout, NULL);
      read_from_host();
    } else if (now > due + 20000000) {
      start = now;
      origin_cycle = avr->cycle;
    }
  }
}
