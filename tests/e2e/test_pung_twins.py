"""Correcting one tile of a pung corrects its two twins, in a real browser (headless Chromium, desktop size).

The photo is the shipped sample with its pung of 7 dots (#4, #5, #6) showing the 4 of characters, so the real reader
reads all three alike and wrong, the 7 of dots none of its guesses. The player taps #4 on the photo and taps 7D: the
page says #5 and #6 took it too (a pung is three of one face) and the photo shows all three as 7D. *Undo* takes the
one correction back, all three 4C again; put right once more and won on a discard, the hand scores the sample's 112.
Screenshots go to ``artifacts/e2e-twins-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from tests.e2e.test_browser import ARTIFACTS, SAMPLE_SCORE, SIZES, Player, browser, server
from tests.test_review_pung_twins import pung_misread_photo

__all__ = ["browser", "server"]  # fixtures, used by name

TWINS_SAID = "#4 is 7D, and #5, #6 with it: a pung is three of one face"


@pytest.fixture
def pung_misread(tmp_path: Path) -> Path:
    """The sample photo with its pung of 7 dots showing the 4 of characters (``pung_misread_photo``)."""
    return pung_misread_photo(tmp_path)


def tile_on_photo(p: Player, number: int, code: str) -> str:
    """The aria-label of tile #number on the photo, which must show ``code``."""
    return str(p.find(f"[class*='st-key-photo-w'] svg path[aria-label^='tile #{number} {code}']").get_attribute("aria-label"))


def test_correcting_one_tile_of_a_pung_corrects_its_twins(server: str, browser: object, pung_misread: Path) -> None:
    driver = browser
    width, height = SIZES["desktop"]
    driver.set_window_size(width, height + 200)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(exist_ok=True)
    driver.get(server)  # type: ignore[attr-defined]
    p = Player(driver, "twins")
    try:
        p.wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Score a hand')]")))
        p.upload(p.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "input[type='file']"))), pung_misread)
        p.find("[class*='st-key-photo-w'] svg")
        for number in (4, 5, 6):
            tile_on_photo(p, number, "4C")
        p.step("pung-read-as-4C")
        p.tap(p.find("[class*='st-key-photo-w'] svg path[aria-label^='tile #4 4C']"), shows=("[data-testid='stImage']", "#4 in the photo"))
        p.tap(p.find("[class*='st-key-w_face_'][class*='_7D'] button"), shows=("[data-testid='stAlert']", TWINS_SAID))
        for number in (4, 5, 6):
            tile_on_photo(p, number, "7D")
        p.step("twins-corrected")
        p.tap(p.find("button", "Undo the last correction"), shows=("[data-testid='stAlert']", "took back"))
        took_back = p.find("[data-testid='stAlert']", "took back").text
        assert "#4 was read as 4C, it is 7D, and #5, #6 with it" in took_back, took_back
        for number in (4, 5, 6):
            tile_on_photo(p, number, "4C")
        p.step("undone")
        p.tap(p.find("[class*='st-key-photo-w'] svg path[aria-label^='tile #5 4C']"), shows=("[data-testid='stImage']", "#5 in the photo"))
        p.tap(p.find("[class*='st-key-w_face_'][class*='_7D'] button"),
              shows=("[data-testid='stAlert']", "#5 is 7D, and #4, #6 with it: a pung is three of one face"))
        p.tap(p.find("[class*='st-key-w_won_by_'] button", "discard"), shows=("[class*='st-key-summary']", SAMPLE_SCORE))
        p.wait.until(lambda d: p.metric() == SAMPLE_SCORE)
        p.step("scored")
    except (WebDriverException, TimeoutException, AssertionError):
        driver.save_screenshot(str(ARTIFACTS / "e2e-twins-failure.png"))  # type: ignore[attr-defined]
        (ARTIFACTS / "e2e-twins-failure.html").write_text(driver.page_source)  # type: ignore[attr-defined]
        raise
