// Small statistics for benchmarks: medians and percentiles, and interleaved
// A/B runs so both sides see the same machine noise.

/** The p-th percentile (0..100) of the samples, by nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median. */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Run A and B alternately `rounds` times (after `warmup` unmeasured pairs); returns the timings in ms. */
export async function interleaved(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  rounds: number,
  warmup = 3,
): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < warmup + rounds; i++) {
    const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const side of order) {
      const t0 = performance.now();
      await (side === 'a' ? a() : b());
      const dt = performance.now() - t0;
      if (i >= warmup) out[side].push(dt);
    }
  }
  return out;
}

/**
 * Run A and B in alternating blocks of `perBlock` calls (ABBA order so
 * neither side always goes first); returns the mean ms per call of each
 * block. Blocks share the machine's drift like single calls do, without the
 * cost of switching between two code paths on every call.
 */
export async function interleavedBlocks(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  blocks: number,
  perBlock: number,
  warmupBlocks = 1,
): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  const block = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    for (let i = 0; i < perBlock; i++) await fn();
    return (performance.now() - t0) / perBlock;
  };
  for (let i = 0; i < warmupBlocks + blocks; i++) {
    const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const side of order) {
      const ms = await block(side === 'a' ? a : b);
      if (i >= warmupBlocks) out[side].push(ms);
    }
  }
  return out;
}

/**
 * Run several sides in turn `rounds` times (after `warmup` unmeasured turns),
 * rotating which side goes first so none always leads; returns each side's
 * timings in ms, in the order given.
 */
export async function interleavedMany(
  sides: ReadonlyArray<() => Promise<unknown>>,
  rounds: number,
  warmup = 3,
): Promise<number[][]> {
  const out = sides.map(() => [] as number[]);
  for (let i = 0; i < warmup + rounds; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      const t0 = performance.now();
      await sides[side]!();
      const dt = performance.now() - t0;
      if (i >= warmup) out[side]!.push(dt);
    }
  }
  return out;
}
