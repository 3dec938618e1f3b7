// What bin/home-agent.mjs runs, as an entry the test run compiles once (compiled-entries.ts): the
// real CLI in its own process, without tsx's loader. Never shipped.
import { main } from '../../host/front/front-ends.ts';

process.exitCode = await main(process.argv.slice(2));
