"""End to end in a real browser: the player's corrections teach their set (issue 41).

Harr's 1922 set (its two photos ship in ``models/tilesets/pungchow-1922/source``): on the second photo, the complete
set, four of each face, the general reader takes one nine of bamboo for a four and one eight of dots for a seven. The
player reads the first photo (the faces laid out in rows, a row a suit), taps its nine of bamboo and its eight of dots
and taps their faces; the page says what the set learnt. The second photo is then read with that set: all four nines
of bamboo and all four eights of dots read right.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from recognizer.tileset import builtin_tileset_dir
from tests.e2e.test_browser import ARTIFACTS, SIZES, Player, browser, running_app

__all__ = ["browser"]  # fixtures, used by name

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
#: On the first photo the faces lie in rows of nine (dots, characters, bamboo): the page numbers tiles in photo order,
#: so the eight of dots is #7 and the nine of bamboo #26.
EIGHT_OF_DOTS, NINE_OF_BAMBOO = 7, 26


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """An app with an empty history and no set of the player's yet (its own tile-set folder)."""
    with running_app(tmp_path) as url:
        yield url


def faces_read(p: Player) -> Counter[str]:
    """How many tiles the photo shows as each face (the boxes' labels, as a screen reader says them)."""
    labels = [el.get_attribute("aria-label") or ""
              for el in p.driver.find_elements(By.CSS_SELECTOR, "[class*='st-key-photo-w'] svg path[aria-label^='tile #']")]  # type: ignore[attr-defined]
    return Counter(m.group(1) for m in (re.match(r"tile #\d+ (\w\w)", label) for label in labels) if m)


def correct(p: Player, tile: int, code: str, learnt: str) -> None:
    """Tap the tile on the photo, tap its right face; the page says what the set learnt."""
    box = p.find(f"[class*='st-key-photo-w'] svg path[aria-label^='tile #{tile} ']")
    p.tap(box, shows=("[data-testid='stImage']", f"#{tile} in the photo"))
    p.tap(p.find(f"[class*='st-key-w_face_'][class*='_{code}'] button"), shows=("[data-testid='stAlert']", f"#{tile} is {code}"))
    p.find("[class*='st-key-learnt'] [data-testid='stAlert']", learnt)


def test_two_tiles_corrected_teach_the_next_photo(server: str, browser: object) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(*SIZES["desktop"])  # type: ignore[attr-defined]
    browser.get(server)  # type: ignore[attr-defined]
    p = Player(browser, "learning")
    p.wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Score a hand')]")))
    upload = p.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "[class*='st-key-w_upload'] input[type='file']")))
    p.upload(upload, SOURCE / "illustration_1.jpg")
    p.find(f"[class*='st-key-photo-w'] svg path[aria-label^='tile #{NINE_OF_BAMBOO} ']")
    p.step("first-photo")
    correct(p, NINE_OF_BAMBOO, "9B", "learnt 1 face of my-set: 9B")
    correct(p, EIGHT_OF_DOTS, "8D", "learnt 2 faces of my-set: 9B, 8D")
    p.step("learnt")
    upload = p.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "[class*='st-key-w_upload'] input[type='file']")))
    p.upload(upload, SOURCE / "illustration_2.jpg")
    p.wait.until(lambda d: sum(faces_read(p).values()) > 100)
    p.idle()
    p.step("second-photo")
    picker = p.find("[class*='st-key-w_tileset']")
    shown = [picker.get_attribute("innerText") or ""] + [i.get_attribute("value") or i.get_attribute("aria-label") or ""
                                                          for i in picker.find_elements(By.CSS_SELECTOR, "input")]
    chosen = " ".join(shown)
    assert "my-set" in chosen, f"the second photo is read with the set the first taught: {chosen}"
    read = faces_read(p)
    assert read["9B"] == 4 and read["8D"] == 4, f"all four nines of bamboo and eights of dots read right: {sorted(read.items())}"
