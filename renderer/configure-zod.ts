import { z } from 'zod';

// zod compiles object parsers with `new Function` unless told not to; the page's CSP (rightly)
// forbids that, and even zod's probe for it is reported as a violation. Schemas probe when they
// are defined, so this module must be evaluated before any module that defines one: main.tsx
// imports it first.
z.config({ jitless: true });
