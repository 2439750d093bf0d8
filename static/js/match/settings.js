/* This device's settings (this browser only): <form id="device-settings"> with
 * input[name=sound], select[name=dice_style] (games with dice only), input[name=autoroll]
 * (players of games with dice) and input[name=shortcuts] (players only); each kept in
 * localStorage under parlour.<name>, read by other scripts with Parlour.setting(name).
 * A change fires "parlour:settings" on document. fromStored() is pure
 * (static/js/tests/match_settings.test.mjs). */

export const KEYS = { sound: "parlour.sound", dice: "parlour.dice_style", shortcuts: "parlour.shortcuts",
  autoroll: "parlour.autoroll" };
export const DICE_STYLES = ["pips", "numbers"];

/** The settings now: {sound: bool, dice: "pips" | "numbers", shortcuts: bool, autoroll: bool}. */
export const settings = { sound: false, dice: "pips", shortcuts: true, autoroll: false };

/** The settings kept in storage, ``get(key)`` (null: never set), over ``into``: the shortcuts
 *  and auto-roll always; sound and the dice style only when ``all`` (no settings form,
 *  whose own fields then say them). Returns ``into``. */
export function fromStored(get, into, all) {
  const shortcuts = get(KEYS.shortcuts);
  if (shortcuts !== null) into.shortcuts = shortcuts === "1";
  into.autoroll = get(KEYS.autoroll) === "1";
  if (all) {
    const sound = get(KEYS.sound);
    const dice = get(KEYS.dice);
    if (sound !== null) into.sound = sound === "1";
    if (DICE_STYLES.indexOf(dice) >= 0) into.dice = dice;
  }
  return into;
}

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (e) {
    /* private mode or storage full: the setting lasts for this page only */
  }
}

function applyDiceStyle() {
  const body = document.body;
  DICE_STYLES.forEach((style) => {
    body.classList.toggle("dice-" + style, style === settings.dice);
  });
}

function readForm(form) {
  const sound = form.elements.namedItem("sound");
  const dice = form.elements.namedItem("dice_style");
  const shortcuts = form.elements.namedItem("shortcuts");
  const autoroll = form.elements.namedItem("autoroll");
  if (autoroll) settings.autoroll = !!autoroll.checked;
  if (sound) settings.sound = !!sound.checked;
  if (dice && DICE_STYLES.indexOf(dice.value) >= 0) settings.dice = dice.value;
  if (shortcuts) settings.shortcuts = !!shortcuts.checked;
}

/** Read the settings (storage, then the form) and keep them when the form changes;
 *  ``changed(wasSoundOn)`` runs after each change is kept, before "parlour:settings". */
export function initSettings(changed) {
  const form = document.getElementById("device-settings");
  fromStored(stored, settings, !form);
  if (form) {
    const sound = stored(KEYS.sound);
    const dice = stored(KEYS.dice);
    const box = form.elements.namedItem("sound");
    const select = form.elements.namedItem("dice_style");
    const keys = form.elements.namedItem("shortcuts");
    if (box && sound !== null) box.checked = sound === "1";
    if (select && DICE_STYLES.indexOf(dice) >= 0) select.value = dice;
    if (keys) keys.checked = settings.shortcuts;
    const auto = form.elements.namedItem("autoroll");
    if (auto) auto.checked = settings.autoroll;
    readForm(form);
    form.addEventListener("change", () => {
      const wasOn = settings.sound;
      readForm(form);
      store(KEYS.sound, settings.sound ? "1" : "0");
      store(KEYS.dice, settings.dice);
      store(KEYS.shortcuts, settings.shortcuts ? "1" : "0");
      store(KEYS.autoroll, settings.autoroll ? "1" : "0");
      applyDiceStyle();
      changed(wasOn);
      document.dispatchEvent(new CustomEvent("parlour:settings", { detail: { settings: settings } }));
    });
    form.addEventListener("submit", (evt) => {
      evt.preventDefault(); // nothing goes to the server
    });
  }
  applyDiceStyle();
}
