/* What Parlour's pages share (an ES module: room, queue, arena and match pages
 * import it; socket.js too). It only defines; each page calls what it needs:
 *
 *   refusals()       what this page says when the server refuses its socket: an
 *                    object close code -> text, read from the data block the page
 *                    renders ({% close_codes "match" %} and so on), <script
 *                    type="application/json" id="close-codes"> (accounts/close_codes.py,
 *                    the one table); {} without it.
 *   tryAgainCode()   the one 4xxx close code that is not a refusal (4013, "try again
 *                    later"), from the same block.
 *   addCsrfTokens()  forms pushed over a socket were rendered without a request, so
 *                    their plain post forms have no csrfmiddlewaretoken: from now on,
 *                    add the page's token (base.html puts it in the body's hx-headers)
 *                    to any post form that lacks one, before the browser posts it.
 *                    Idempotent.
 * The pages' reconnect policy is socket.js.
 */

/** The page's close-code table ({% close_codes "match" %}: <script type="application/json"
 *  id="close-codes">, accounts/close_codes.py): {refusals: {code: text}, try_again}; {} without it. */
export function closeCodes() {
  const el = document.getElementById("close-codes");
  try {
    return (el && JSON.parse(el.textContent)) || {};
  } catch (e) {
    return {}; // no table on the page: every refusal gets the page's fallback text
  }
}

/** What this page says when the server refuses its socket: close code -> text. */
export function refusals() {
  return closeCodes().refusals || {};
}

/** The one 4xxx close code that is not a refusal (4013, "try again later"). */
export function tryAgainCode() {
  return closeCodes().try_again || 4013;
}


/** The CSRF token the page was rendered with (base.html puts it in hx-headers); "" without. */
export function csrfToken() {
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (e) {
    return ""; // no token on the page: the server refuses the post with a page saying why
  }
}

let adding = false;

export function addCsrfTokens() {
  if (adding) return;
  adding = true;
  document.addEventListener(
    "submit",
    (evt) => {
      const form = evt.target;
      if (!form || form.tagName !== "FORM" || (form.method || "").toLowerCase() !== "post") return;
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = csrfToken();
      form.appendChild(input);
    },
    true
  );
}
