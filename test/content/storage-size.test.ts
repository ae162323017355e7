import { describe, expect, it } from "vitest";
import { storageSize } from "../../src/content/media/limits";

/** The sizes the console's bars and the refusals write: what a member reads of their tenant's room. */
describe("sizes as people read them", () => {
  it("writes nothing as 0 KB and a few bytes as 1 KB, never a used room as empty", () => {
    expect(storageSize(0)).toBe("0 KB");
    expect(storageSize(17)).toBe("1 KB");
    expect(storageSize(1536)).toBe("2 KB");
  });

  it("writes megabytes and gigabytes to a tenth, in units of 1,024", () => {
    expect(storageSize(5 * 1024 * 1024)).toBe("5 MB");
    expect(storageSize(54.4 * 1024 * 1024)).toBe("54.4 MB");
    expect(storageSize(1023.2 * 1024 * 1024)).toBe("1,023.2 MB");
    expect(storageSize(1024 ** 3)).toBe("1 GB");
  });
});
