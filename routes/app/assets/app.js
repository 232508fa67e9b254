// The web app's only script: copy buttons, confirmations and polling. Everything else works
// without it (forms post and pages render on the server).
"use strict";

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-target]");
  if (!button) return;
  const target = document.getElementById(button.dataset.copyTarget);
  if (!target) return;
  const text = target.value ?? target.textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API unavailable (plain HTTP): select the text so the member can copy it.
    if (target.select) target.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = "Copied";
  button.classList.add("done");
  setTimeout(() => {
    button.textContent = label;
    button.classList.remove("done");
  }, 1500);
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.dataset.confirm && !globalThis.confirm(form.dataset.confirm)) event.preventDefault();
});

// <div data-poll-url="/app/…/progress" data-poll-ms="1000">: the element's content is replaced
// by the URL's HTML fragment until the fragment carries data-done="true"; then, when the element
// asks for it (data-reload-when-done), the page reloads to show the final state.
function poll(element) {
  const every = Number(element.dataset.pollMs || 1000);
  const tick = async () => {
    try {
      const response = await fetch(element.dataset.pollUrl, { credentials: "same-origin" });
      if (response.ok) {
        element.innerHTML = await response.text();
        if (element.querySelector('[data-done="true"]')) {
          if (element.dataset.reloadWhenDone !== undefined) globalThis.location.reload();
          return;
        }
      }
    } catch {
      // A missed tick: try again at the next one.
    }
    setTimeout(tick, every);
  };
  setTimeout(tick, every);
}

document.querySelectorAll("[data-poll-url]").forEach(poll);

// A table wider than its frame scrolls sideways: it becomes a labelled, focusable region (the
// keyboard can scroll it) and a line under it says so. Checked again when the window resizes.
function markScrollingTables() {
  document.querySelectorAll(".table-wrap").forEach((wrap) => {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    const hint = wrap.nextElementSibling?.classList.contains("scroll-hint")
      ? wrap.nextElementSibling
      : null;
    if (scrolls && !hint) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", wrap.dataset.label || "Table");
      const line = document.createElement("p");
      line.className = "scroll-hint";
      line.textContent = "The table is wider than the screen: scroll it sideways.";
      wrap.after(line);
    } else if (!scrolls && hint) {
      wrap.removeAttribute("tabindex");
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
      hint.remove();
    }
  });
}
markScrollingTables();
globalThis.addEventListener("resize", markScrollingTables);
