import { gettext } from "./i18n.js";

/* Copy buttons: <button data-copy="ID" hidden> copies the value of the field #ID
 * (a read-only input) and says so in [data-copy-state="ID"]. Without JavaScript
 * (or without the clipboard) the button stays hidden and the field is copied by
 * hand; when the clipboard refuses, the field is selected for Ctrl+C. */
for (const button of document.querySelectorAll("button[data-copy]")) {
  const id = button.getAttribute("data-copy");
  const field = document.getElementById(id);
  const state = document.querySelector(`[data-copy-state="${id}"]`);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(field.value).then(
      () => { if (state) state.textContent = gettext("Copied."); },
      () => {
        field.select();
        if (state) state.textContent = gettext("Press Ctrl+C (or ⌘C) to copy the selected token.");
      },
    );
  });
}
