// The API reference's only script: the sidebar's search, the phone's menu, and the copy buttons of the curl samples.
/* global document, navigator, setTimeout */
const search = document.getElementById("search");
const count = document.getElementById("count");
const items = [...document.querySelectorAll(".tags li[data-search]")];
const operations = new Map([...document.querySelectorAll("article.operation")].map((article) => [article.id, article]));
const menu = document.querySelector(".menu");

const noMatch = document.getElementById("no-match");

/** A word of the search matches where a word of the text starts: "vat" finds VAT, not "deactivate". A path or symbol anywhere. */
const matcher = (word) => {
  if (!/^[a-z0-9]/.test(word)) return (text) => text.includes(word);
  const start = new RegExp(`(^|[^a-z0-9])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
  return (text) => start.test(text);
};

function filter() {
  const typed = search.value.trim();
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  const matchers = words.map(matcher);
  let shown = 0;
  for (const item of items) {
    const match = matchers.every((matches) => matches(item.dataset.search));
    item.hidden = !match;
    const article = operations.get(item.querySelector("a").hash.slice(1));
    if (article) article.hidden = !match;
    if (match) shown += 1;
  }
  for (const tag of document.querySelectorAll(".tags .tag")) tag.hidden = !tag.querySelector("li[data-search]:not([hidden])");
  // While searching, the results come first: the guide steps aside.
  for (const guide of document.querySelectorAll("main .guide")) guide.hidden = words.length > 0;
  for (const section of document.querySelectorAll(".tag-section")) section.hidden = !section.querySelector("article.operation:not([hidden])");
  count.textContent = words.length === 0 ? `${items.length} operations` : shown === 1 ? "1 operation matches" : `${shown} operations match`;
  noMatch.hidden = words.length === 0 || shown > 0;
  noMatch.textContent = `No operation matches “${typed}”. Try fewer words, a path (/contents) or an operation's number (T5).`;
}

function setMenu(open) {
  document.body.classList.toggle("menu-open", open);
  menu.setAttribute("aria-expanded", String(open));
}

search.addEventListener("input", filter);
menu.addEventListener("click", () => setMenu(!document.body.classList.contains("menu-open")));
document.querySelector(".sidebar").addEventListener("click", (event) => {
  const link = event.target.closest("a");
  if (!link) return;
  for (const current of document.querySelectorAll(".tags a.current")) current.classList.remove("current");
  link.classList.add("current");
  setMenu(false);
});
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const text = button.parentElement.querySelector("code").textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
  setTimeout(() => (button.textContent = "Copy"), 1500);
});
