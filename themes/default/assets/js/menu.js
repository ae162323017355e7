// The menu's second levels are <details>: open, one stays open until its summary is pressed again.
// Escape closes it (focus back on its summary), and so do focus or a click going elsewhere.
// With a mouse on a wide screen, resting on an item opens its second level and leaving closes it.
// On a narrow screen the menu is a panel, the target of its Menu link (site.css: it works without
// script). Here the link says whether the panel is open, and Escape or Close shuts it with the focus
// back on the link.
/* global document, window, setTimeout, clearTimeout */
const openSubMenus = () => document.querySelectorAll(".site-nav details.sub[open]");
const panelLink = document.querySelector(".menu-open");
const panelOpen = () => window.location.hash === "#menu";
const showPanelState = () => panelLink?.setAttribute("aria-expanded", String(panelOpen()));
const closePanel = () => {
  window.location.hash = "top";
  panelLink?.focus();
};
showPanelState();
window.addEventListener("hashchange", showPanelState);
document.querySelector(".menu-close")?.addEventListener("click", (event) => {
  event.preventDefault();
  closePanel();
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const subMenus = [...openSubMenus()];
  for (const menu of subMenus) {
    const hadFocus = menu.contains(document.activeElement);
    menu.open = false;
    if (hadFocus) menu.querySelector("summary").focus();
  }
  // A second level closes first; the panel with the next Escape.
  if (subMenus.length === 0 && panelOpen()) closePanel();
});

const closeOthers = (event) => {
  for (const menu of openSubMenus()) if (!menu.contains(event.target)) menu.open = false;
};
document.addEventListener("focusin", closeOthers);
document.addEventListener("click", closeOthers);

// Below this width the menu is a panel whose levels open by a tap (site.css).
const dropdowns = window.matchMedia("not all and (max-width: 56rem)");
// Long enough to cross the gap between an item and its list, short enough not to linger.
const CLOSE_DELAY_MS = 300;

for (const item of document.querySelectorAll(".site-nav .has-sub")) {
  const menu = item.querySelector("details.sub");
  let openedByPointer = false;
  let closing;
  item.addEventListener("pointerenter", (event) => {
    if (event.pointerType !== "mouse" || !dropdowns.matches) return;
    clearTimeout(closing);
    if (!menu.open) {
      menu.open = true;
      openedByPointer = true;
    }
  });
  item.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "mouse" || !openedByPointer) return;
    closing = setTimeout(() => {
      menu.open = false;
      openedByPointer = false;
    }, CLOSE_DELAY_MS);
  });
  // A click on the chevron of a level the pointer opened keeps it open, as a click on a closed one opens it.
  menu.querySelector("summary").addEventListener("click", (event) => {
    if (!openedByPointer) return;
    event.preventDefault();
    openedByPointer = false;
    clearTimeout(closing);
  });
}
