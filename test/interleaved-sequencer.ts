import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Runs the browser files beside the workerd files instead of before them. Vitest's own order runs
 * one project after another; the browser files mostly wait (on Chromium, on `wrangler dev`) while
 * the workerd files keep the CPU busy, so on two cores the suite is quickest when both streams
 * advance together. Each stream keeps Vitest's order (longest or largest first); the next file is
 * taken from the stream that has gone through the smaller share of its own expected time.
 */
export default class InterleavedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const streams = [sorted.filter((file) => file.project.name === "browser"), sorted.filter((file) => file.project.name !== "browser")];
    // A file's expected cost: its last duration, else its size (a clean clone has no cache). The
    // units differ between streams but only each stream's share of its own total is compared.
    const cost = (file: TestSpecification) => {
      const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
      return this.ctx.cache.getFileTestResults(key)?.duration || this.ctx.cache.getFileStats(key)?.size || 1;
    };
    const totals = streams.map((stream) => stream.reduce((sum, file) => sum + cost(file), 0));
    const done = streams.map(() => 0);
    const next = streams.map(() => 0);
    const order: TestSpecification[] = [];
    while (order.length < sorted.length) {
      const open = [0, 1].filter((i) => next[i]! < streams[i]!.length);
      const pick = open.reduce((a, b) => (done[b]! / totals[b]! < done[a]! / totals[a]! ? b : a));
      const file = streams[pick]![next[pick]!++]!;
      done[pick]! += cost(file);
      order.push(file);
    }
    return order;
  }
}
