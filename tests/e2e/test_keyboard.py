"""The tile keyboard in a real browser, at a desktop's size and a phone's: a 14-tile hand tapped in
by its pictures, one tap to say it was won off a discard, the score on screen: at most 16 taps.
Screenshots go to ``artifacts/e2e-keyboard-<size>-*.png``.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")

from selenium.common.exceptions import TimeoutException, WebDriverException

from tests.e2e.test_browser import ARTIFACTS, SIZES, browser, server
from tests.e2e.test_evening import Phone, open_phone

__all__ = ["browser", "server"]  # fixtures, used by name

#: A concealed hand, the last tile the winning one (2D, off a discard: 22 under harr-1922).
HAND = "7C 8C 9C 6C 7C 8C SW SW 5C 6C 7C 2D 2D 2D"


def tap_picture(p: Phone, code: str) -> None:
    """Tap the tile's picture (not the code under it)."""
    p.tap(p.find(f"[class*='st-key-palette-w-keys'] [data-testid='stColumn']:has([class*='st-key-w_keys_'][class*='_{code}']) img"))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_hand_tapped_in_on_the_tile_keyboard(server: str, browser: object, size: str) -> None:
    driver = browser
    width, height = SIZES[size]
    driver.set_window_size(width, height + 200)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(exist_ok=True)
    p = open_phone(driver, server, size, "a", first=True, story="keyboard")
    try:
        p.tap(p.find("[data-baseweb='tab'], [role='tab']", "Tap the tiles"))
        codes = HAND.split()
        for code in codes[:3]:
            tap_picture(p, code)
        p.tap(p.find("[class*='st-key-w_keys_undo'] button"))  # a mistap taken back, and tapped again
        tap_picture(p, codes[2])
        p.taps -= 2  # the mistap and its undo are not part of the hand's taps
        for code in codes[3:]:
            tap_picture(p, code)
        p.step("tapped")
        shown = p.find("[class*='st-key-keyboard'] [data-testid='stMarkdownContainer']", "Tap the tiles").text
        assert "7C8C9C6C7C8CSWSW5C6C7C2D2D2D" in shown and "winning tile 2D" in shown, shown
        p.tap(p.find("[class*='st-key-w_keys_use_discard'] button"))
        metric = p.answer_on_screen("[data-testid='stMetricValue']", "22")
        p.step("scored")
        assert metric.text.split()[0] == "22"
    except (WebDriverException, TimeoutException, AssertionError):
        driver.save_screenshot(str(ARTIFACTS / f"e2e-keyboard-{size}-failure.png"))  # type: ignore[attr-defined]
        (ARTIFACTS / f"e2e-keyboard-{size}-failure.html").write_text(driver.page_source)  # type: ignore[attr-defined]
        raise
    finally:
        (ARTIFACTS / f"e2e-keyboard-{size}-steps.json").write_text(json.dumps(
            {"steps": [{"step": s, "taps_so_far": t, "seconds": sec} for s, t, sec in p.steps], "taps": p.taps}, indent=1))
    assert p.taps <= 16, f"the keyboard's hand took {p.taps} taps (tab, 14 tiles, won off a discard)"
