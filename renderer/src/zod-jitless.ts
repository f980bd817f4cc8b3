// zod compiles a fast parser with `new Function` unless told not to; under the app's CSP (no 'unsafe-eval') that
// probe is refused and reported as a CSP violation. main.tsx imports this first, so it runs before any schema is
// built (zod decides at each object schema's creation).
import { z } from 'zod';

z.config({ jitless: true });
