// Work that the person does not see in the frame a question arrives in (the
// tab title's count) waits until that frame has painted: in Chromium a title
// change is a message to the browser process, measurable in the time from a
// question's arrival to its dialog's paint (docs/benchmarks.md).

/** Run `work` once the next frame has painted; the returned function cancels it (an effect's cleanup). */
export function afterNextPaint(work: () => void): () => void {
  if (typeof requestAnimationFrame === 'undefined') {
    work();
    return () => undefined;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  // requestAnimationFrame runs just before the frame paints; a task queued from it runs after.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(work, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
