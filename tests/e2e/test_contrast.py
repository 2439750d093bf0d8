"""Contrast of the match page in light, dark and forced colours, checked by
axe-core (tests/e2e/package.json) in a real Chromium: boards, pieces,
highlights, dice, map backdrops and the panel (match.css: the boards keep their
own colours in every mode)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.positions import ON_PAGE, make_decision
from tests.e2e.test_live_play import in_thread, live, log_in

# The function of contrast.js, without its leading comment (page.evaluate calls a function source).
CHECK = "\n".join(line for line in (Path(__file__).parent / "contrast.js").read_text().splitlines()
                  if not line.startswith("//"))

MODES = {"light": {"color_scheme": "light"}, "dark": {"color_scheme": "dark"},
         "forced": {"color_scheme": "light", "forced_colors": "active"}}


def contrast_violations(page, axe_source, within=None):
    """axe-core's color-contrast findings on ``page`` (or only in what the selector
    ``within`` matches): [(selector, summary)].

    Short texts count too (``ignoreLength``: a piece's number is one character).
    axe cannot find the background of an SVG text (it reports them "incomplete"),
    so each board text not drawn with its own outline is also measured against
    the fill of the shape it sits on (the shape before it in its group, else the
    board's background), with axe's own colour math, to AA's 4.5:1."""
    page.evaluate(axe_source)
    found = page.evaluate(CHECK, within)
    assert isinstance(found, list), "the check did not run"
    return found


def violations_by_mode(page, axe_source):
    """contrast_violations of the whole page in each of MODES: {mode: violations},
    the modes without any left out; the page is left in light mode."""
    found = {}
    for mode, media in MODES.items():
        page.emulate_media(**media)
        bad = contrast_violations(page, axe_source)
        if bad:
            found[mode] = bad
    page.emulate_media(color_scheme="light", forced_colors="none")
    return found


@pytest.mark.parametrize("name,options", [("ludo-choose", {}), ("ludo-choose", {"theme": "europe"}),
                                          ("ludo-stacks", {}),
                                          ("roundabout-darts", {}), ("rondo-place", {}),
                                          ("rondo-after-chain", {}), ("rondo-pick", {})],
                         ids=["ludo", "ludo-map", "ludo-piles", "roundabout", "rondo", "rondo-last-chain",
                              "rondo-picker"])
def test_the_match_page_passes_axe_contrast_in_light_dark_and_forced_colours(
        page, live_server_url, axe_source, name, options):
    match = in_thread(make_decision, name, **options)
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    if name in ON_PAGE:
        ON_PAGE[name](page)
    assert violations_by_mode(page, axe_source) == {}


def test_the_which_one_chooser_passes_axe_contrast_in_light_dark_and_forced_colours(
        page, live_server_url, axe_source):
    """The chooser a tap between two close targets opens (static/js/board.js ask()),
    over the board on a phone: Roundabout's darts (their shapes) and Rondo's spaces
    (their values in their colours). The chooser only (the page under it has its own test)."""
    from tests.e2e.test_board_chooser import open_rondo_chooser, open_start_chooser

    found = {}
    for name, opener in (("roundabout", open_start_chooser), ("rondo", open_rondo_chooser)):
        opener(page, live_server_url)
        for mode, media in MODES.items():
            page.emulate_media(**media)
            expect(page.locator(".bd-chooser")).to_be_visible()
            bad = contrast_violations(page, axe_source, ".bd-chooser")
            if bad:
                found[f"{name} {mode}"] = bad
        page.emulate_media(color_scheme="light", forced_colors="none")
    assert found == {}


def test_a_composed_rondo_chain_passes_axe_contrast_in_light_dark_and_forced_colours(
        page, live_server_url, axe_source):
    """With three placements composed, the rack's used tiles (empty dashed slots,
    their letters struck through) and the chain's list keep their contrast (a
    faded tile did not)."""
    from tests.e2e.test_board_chooser import open_rondo_chooser

    open_rondo_chooser(page, live_server_url)
    page.keyboard.press("Escape")
    expect(page.locator("#rondo-rack .rb-used")).to_have_count(3)
    found = {}
    for mode, media in MODES.items():
        page.emulate_media(**media)
        bad = contrast_violations(page, axe_source, "#controls")
        if bad:
            found[mode] = bad
        if os.environ.get("PARLOUR_SHOTS"):
            shots = os.environ["PARLOUR_SHOTS"]
            page.locator("#controls").screenshot(path=os.path.join(shots, f"rack-{mode}.png"))
    page.emulate_media(color_scheme="light", forced_colors="none")
    assert found == {}


def test_a_composed_roundabout_step_passes_axe_contrast_in_light_dark_and_forced_colours(
        page, live_server_url, axe_source):
    """Where a match starts, one step composed: the darts outlined, the moved one dimmed
    with its preview, and the hub's used die (struck through, muted, still readable)."""
    match = in_thread(make_decision, "roundabout-start")
    log_in(page.context, match.seats.get(index=0).user, live_server_url)
    page.goto(f"{live_server_url}/m/{match.public_id}/")
    live(page)
    page.locator('#board .bd-target[data-target="dart 9"]').click(force=True)
    page.locator("#board .bd-dest").first.click(force=True)
    expect(page.locator("#board-say")).to_contain_text("Step 1:")
    expect(page.locator("#board .ra-dice .is-used")).to_have_count(1)
    assert violations_by_mode(page, axe_source) == {}


def test_your_matches_and_a_toast_pass_axe_contrast_in_light_dark_and_forced_colours(
        browser, live_server_url, axe_source):
    """README "Notifications": the home page's "Your matches" and a toast over it."""
    from tests.e2e.test_notifications import your_turn_setup

    context = browser.new_context()
    page = your_turn_setup(context, live_server_url, "/")
    expect(page.locator(".ym-row")).to_have_count(2)
    assert violations_by_mode(page, axe_source) == {}
    context.close()
