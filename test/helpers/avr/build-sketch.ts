import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../run-cli.ts';
import { cachedFolder, contentHash, runTool } from './cached-build.ts';

const ARDUINO = '/usr/share/arduino/hardware/arduino/avr';
const CORE = path.join(ARDUINO, 'cores/arduino');
const VARIANT = path.join(ARDUINO, 'variants/standard');

/** The Arduino library in the repository, and the examples a person flashes. */
export const LIBRARY = path.join(REPO_ROOT, 'firmware/arduino/HomeAgentDevice');
export const EXAMPLES = ['Lamp', 'Sensor', 'Relay', 'Lock'] as const;
export type Example = (typeof EXAMPLES)[number];

// The flags of an Arduino Uno build, as the IDE uses them; gcc-avr 5.4 needs DECIMAL_DIG for the core's WString.cpp.
const BOARD_FLAGS = [
  '-mmcu=atmega328p',
  '-DF_CPU=16000000L',
  '-DARDUINO=10807',
  '-DARDUINO_AVR_UNO',
  '-DARDUINO_ARCH_AVR',
  '-Os',
  '-ffunction-sections',
  '-fdata-sections',
  '-DDECIMAL_DIG=__DECIMAL_DIG__',
];
const CPP_FLAGS = ['-std=gnu++11', '-fpermissive', '-fno-exceptions', '-fno-threadsafe-statics'];
// Our own code builds without a single warning; the core is Arduino's and keeps its own.
const STRICT = ['-Wall', '-Wextra', '-Werror'];
const INCLUDES = [`-I${CORE}`, `-I${VARIANT}`];

/** A firmware image and its size as avr-size reports it. */
export interface BuiltSketch {
  /** The sketch's name (an example's, or a test sketch's file name without `.ino`). */
  example: string;
  /** The id the sketch's `#define HOME_AGENT_ID` was built with. */
  id: string;
  elfPath: string;
  /** Program memory: .text + .data (the initial values of variables are stored in flash too). */
  flashBytes: number;
  /** Static RAM: .data + .bss (+ .noinit); the stack grows into what is left of the 2048 bytes. */
  ramBytes: number;
}

const builds = new Map<string, Promise<BuiltSketch>>();

async function filesOf(folder: string, extensions: readonly string[]): Promise<string[]> {
  const names = (await readdir(folder)).filter((name) => extensions.some((extension) => name.endsWith(extension)));
  return names.sort().map((name) => path.join(folder, name));
}

async function hashOfFiles(files: readonly string[]): Promise<string[]> {
  return Promise.all(files.map(async (file) => `${path.basename(file)}:${contentHash([await readFile(file)])}`));
}

let compilerVersion: Promise<string> | undefined;
function avrCompilerVersion(): Promise<string> {
  compilerVersion ??= runTool('avr-g++', ['--version']);
  return compilerVersion;
}

/** Builds the Arduino core (cached by its files, the compiler and the flags); resolves with core.a. */
async function buildCore(): Promise<string> {
  const sources = [
    ...(await filesOf(CORE, ['.c', '.cpp', '.S'])),
    ...(await filesOf(CORE, ['.h'])),
    ...(await filesOf(VARIANT, ['.h'])),
  ];
  const key = `core-${contentHash([await avrCompilerVersion(), ...BOARD_FLAGS, ...CPP_FLAGS, ...(await hashOfFiles(sources))])}`;
  const folder = await cachedFolder(key, async (scratch) => {
    const compiled = await Promise.all(
      sources
        .filter((file) => !file.endsWith('.h'))
        .map(async (file) => {
          const object = path.join(scratch, `${path.basename(file)}.o`);
          const args = file.endsWith('.cpp')
            ? ['avr-g++', [...BOARD_FLAGS, ...CPP_FLAGS]]
            : file.endsWith('.S')
              ? ['avr-gcc', [...BOARD_FLAGS, '-x', 'assembler-with-cpp']]
              : ['avr-gcc', BOARD_FLAGS];
          await runTool(args[0] as string, [...(args[1] as string[]), ...INCLUDES, '-c', file, '-o', object]);
          return object;
        }),
    );
    await runTool('avr-ar', ['rcs', path.join(scratch, 'core.a'), ...compiled]);
  });
  return path.join(folder, 'core.a');
}

/** Reads avr-size's section table: flash = .text + .data, RAM = .data + .bss + .noinit. */
async function measure(elfPath: string): Promise<{ flashBytes: number; ramBytes: number }> {
  const table = await runTool('avr-size', ['-A', elfPath]);
  const sections = new Map<string, number>();
  for (const line of table.split('\n')) {
    const match = /^(\.\w+)\s+(\d+)\s+\d+\s*$/.exec(line.trim());
    if (match) sections.set(match[1]!, Number(match[2]));
  }
  const size = (name: string): number => sections.get(name) ?? 0;
  return { flashBytes: size('.text') + size('.data'), ramBytes: size('.data') + size('.bss') + size('.noinit') };
}

/** The sketch's text with its one `#define HOME_AGENT_ID "…"` line set to `id` (as a person edits it). */
function withId(source: string, example: string, id: string | undefined): { text: string; id: string } {
  const lines = [...source.matchAll(/^#define HOME_AGENT_ID "([^"]*)"$/gm)];
  if (lines.length !== 1) throw new Error(`${example}.ino must set its id in exactly one #define HOME_AGENT_ID line`);
  if (id === undefined) return { text: source, id: lines[0]![1]! };
  return { text: source.replace(/^#define HOME_AGENT_ID "[^"]*"$/m, `#define HOME_AGENT_ID "${id}"`), id };
}

async function build(sketchFile: string, id: string | undefined): Promise<BuiltSketch> {
  const example = path.basename(sketchFile, '.ino');
  const sketch = withId(await readFile(sketchFile, 'utf8'), example, id);
  const librarySources = await filesOf(path.join(LIBRARY, 'src'), ['.cpp', '.h']);
  const core = await buildCore();
  const key = `${example}-${contentHash([core, sketch.text, ...STRICT, ...(await hashOfFiles(librarySources))])}`;
  const folder = await cachedFolder(key, async (scratch) => {
    const includes = [...INCLUDES, `-I${path.join(LIBRARY, 'src')}`];
    const sketchCopy = path.join(scratch, `${example}.ino.cpp`);
    await writeFile(sketchCopy, sketch.text);
    const objects = await Promise.all(
      [...librarySources.filter((file) => file.endsWith('.cpp')), sketchCopy].map(async (file) => {
        const object = path.join(scratch, `${path.basename(file)}.o`);
        await runTool('avr-g++', [...BOARD_FLAGS, ...CPP_FLAGS, ...STRICT, ...includes, '-c', file, '-o', object]);
        return object;
      }),
    );
    const elf = path.join(scratch, 'firmware.elf');
    await runTool('avr-gcc', ['-mmcu=atmega328p', '-Os', '-Wl,--gc-sections', ...objects, core, '-o', elf, '-lm']);
  });
  const elfPath = path.join(folder, 'firmware.elf');
  return { example, id: sketch.id, elfPath, ...(await measure(elfPath)) };
}

/**
 * Compiles an example for an Arduino Uno with Debian's gcc-avr against arduino-core-avr, as it
 * stands in the repository or with another HOME_AGENT_ID. Built once per content (cached in a temp
 * folder across workers and runs), so every test and the bench share one build.
 */
export function buildExample(example: Example, options: { id?: string } = {}): Promise<BuiltSketch> {
  return buildSketch(path.join(LIBRARY, 'examples', example, `${example}.ino`), options);
}

/** Compiles any sketch against the library (the tests' own probes), cached like the examples. */
export function buildSketch(sketchFile: string, options: { id?: string } = {}): Promise<BuiltSketch> {
  const key = `${sketchFile}:${options.id ?? ''}`;
  let built = builds.get(key);
  if (built === undefined) {
    built = build(sketchFile, options.id);
    builds.set(key, built);
    built.catch(() => builds.delete(key));
  }
  return built;
}
