import type { MarkdownIt } from "markdown-it";

import type { Dimensions } from "./media/dimensions";

let renderer: MarkdownIt | undefined;
/** What a render hands its rules: the size of an image the site holds. */
type RenderEnv = { sizeOf: (src: string) => Dimensions | undefined };

/**
 * Markdown to HTML for a content's body, when it is saved. Raw HTML in the Markdown is shown as
 * text, never passed through, and links to `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs are not made links (markdown-it's defaults, kept on purpose). Loaded on the first
 * save: no reader's request pays for the parser.
 */
export async function renderMarkdown(markdown: string, sizeOf: (src: string) => Dimensions | undefined = () => undefined): Promise<string> {
  if (!renderer) {
    const { default: createMarkdownIt } = await import("markdown-it");
    renderer = createMarkdownIt({ html: false, linkify: true, typographer: false });
    // A body's images are below the page's heading and cover: loaded as the reader comes to them,
    // their space reserved when their size is known (no layout shift).
    const image = renderer.renderer.rules.image!;
    renderer.renderer.rules.image = (tokens, index, options, env, self) => {
      const token = tokens[index]!;
      // renderMarkdown is the only caller of render, and hands it a RenderEnv.
      const size = (env as RenderEnv).sizeOf(String(token.attrGet("src") ?? ""));
      if (size) {
        token.attrSet("width", String(size.width));
        token.attrSet("height", String(size.height));
      }
      token.attrSet("loading", "lazy");
      return image(tokens, index, options, env, self);
    };
  }
  return renderer.render(markdown, { sizeOf } satisfies RenderEnv);
}
