import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's order (longest first, by the last run), with the files that rewrite the seeded data
 * ahead of the rest of their project: each worker takes them back to back, so the storage is
 * emptied for one file after them, not after each (test/setup.ts).
 */
export default class RewritersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // The browser and scripts projects do not extend the root config: they provide no list.
    const rewrites = (spec: TestSpecification) =>
      (spec.project.config.provide.storageRewritingFiles ?? []).some((file) => spec.moduleId.endsWith(file)) ? 0 : 1;
    // A stable sort: the order within each part stays Vitest's.
    return sorted.sort((a, b) => rewrites(a) - rewrites(b));
  }
}
