// Imported first by app-bridge-host.ts, so it runs before the SDK code the bridge carries is evaluated: that code
// builds and parses zod schemas as it loads, and zod's fast path probes `new Function` once. The renderer's policy
// has no 'unsafe-eval' (shared/csp.ts), so the probe would be a CSP violation; jitless zod never probes.
import { config } from 'zod/v4/core';

config({ jitless: true });
