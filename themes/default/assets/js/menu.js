// The menu's second levels are <details>: open, one stays open until its summary is pressed again.
// Escape closes it (focus back on its summary), and so do focus or a click going elsewhere.
/* global document */
const openSubMenus = () => document.querySelectorAll(".site-nav details.sub[open]");

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const menu of openSubMenus()) {
    const hadFocus = menu.contains(document.activeElement);
    menu.open = false;
    if (hadFocus) menu.querySelector("summary").focus();
  }
});

const closeOthers = (event) => {
  for (const menu of openSubMenus()) if (!menu.contains(event.target)) menu.open = false;
};
document.addEventListener("focusin", closeOthers);
document.addEventListener("click", closeOthers);
