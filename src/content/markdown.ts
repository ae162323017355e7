import type { MarkdownIt } from "markdown-it";

let renderer: MarkdownIt | undefined;

/**
 * Markdown to HTML for a content's body, when it is saved. Raw HTML in the Markdown is shown as
 * text, never passed through, and links to `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs are not made links (markdown-it's defaults, kept on purpose). Loaded on the first
 * save: no reader's request pays for the parser.
 */
export async function renderMarkdown(markdown: string): Promise<string> {
  if (!renderer) {
    const { default: createMarkdownIt } = await import("markdown-it");
    renderer = createMarkdownIt({ html: false, linkify: true, typographer: false });
    // A body's images are below the page's heading and cover: loaded as the reader comes to them.
    const image = renderer.renderer.rules.image!;
    renderer.renderer.rules.image = (tokens, index, options, env, self) => {
      tokens[index]!.attrSet("loading", "lazy");
      return image(tokens, index, options, env, self);
    };
  }
  return renderer.render(markdown);
}
