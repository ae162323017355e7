import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's order (longest first by the last run; by size on a clean clone), with two kinds of file
 * ahead of the rest of their project: the files that rewrite the seeded data, so that each worker
 * takes them back to back and the storage is emptied for one file after them, not after each
 * (test/setup.ts); and the browser files that wait on the wall clock, so that their waits overlap
 * the other files' work instead of ending the run alone.
 */
export default class RewritersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A project provides the lists it has: the workerd projects the rewriters, the browser project the clock's.
    const first = (spec: TestSpecification) => {
      const { storageRewritingFiles = [], clockWaitingFiles = [] } = spec.project.config.provide;
      return [...storageRewritingFiles, ...clockWaitingFiles].some((file) => spec.moduleId.endsWith(file)) ? 0 : 1;
    };
    // A stable sort: the order within each part stays Vitest's.
    return sorted.sort((a, b) => first(a) - first(b));
  }
}
