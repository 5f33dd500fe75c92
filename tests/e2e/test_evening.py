"""An evening at one table in a real browser (headless Chromium), at a desktop's size and a phone's:
two phones at one table (two tabs: two sessions), four deals from a photo and typed hands, Save
tapped twice, a deal saved by mistake and undone; the score sheet's totals are the sum of the
settlements, no record is kept twice, and on the phone the answer to every step's last tap is on
screen without scrolling. Screenshots of each step go to ``artifacts/e2e-evening-<size>-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.test_browser import (  # the same server, browser and player as the main story
    ARTIFACTS,
    SAMPLE,
    SAMPLE_SCORE,
    SIZES,
    Player,
    browser,
    running_app,
)

__all__ = ["browser"]  # fixtures, used by name


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """An app of the evening's own: each size plays a whole evening from an empty history (the page opens on the
    latest game, so an app shared with another size's evening would open on that one)."""
    with running_app(tmp_path) as url:
        yield url

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WINNER = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
#: Three losers' hands that one set of tiles holds beside the winner's or the sample photo's (a deal with more than
#: four of a tile is refused); each scores as a pung of dragons and a kong of simples laid out.
LOSERS = ("2B3B4B 5D5D9D9D [RDRDRD] [4D4D4D4D]", "2B3B4B 1D1D8D8D [GDGDGD] [3D3D3D3D]", "2B3B4B 1C1C2C2C [WDWDWD] [8B8B8B8B]")


class Phone(Player):
    """A player at the table, in a tab of its own (its own session), with what must be on screen checked."""

    def __init__(self, driver: object, size: str, tab: str, name: str, story: str = "evening") -> None:
        super().__init__(driver, size)
        self.tab = tab
        self.name = name
        self.story = story

    def use(self) -> Phone:
        self.driver.switch_to.window(self.tab)  # type: ignore[attr-defined]
        return self

    def step(self, name: str) -> None:
        self.steps.append((name, self.taps, round(time.monotonic() - self.started, 1)))
        self.driver.save_screenshot(  # type: ignore[attr-defined]
            str(ARTIFACTS / f"e2e-{self.story}-{self.size}-{self.name}-{len(self.steps):02d}-{name}.png"))

    def on_screen(self, element: WebElement) -> bool:
        """Wholly inside the window, as the page is scrolled now (no scrolling done for it)."""
        return bool(self.driver.execute_script(  # type: ignore[attr-defined]
            "const r = arguments[0].getBoundingClientRect();"
            "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;",
            element))

    def answer_on_screen(self, css: str, text: str) -> WebElement:
        """The answer to the last tap appeared, and where the player is looking: no scrolling to find it."""
        self.wait.until(lambda d: any(text in e.text for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()))

        def seen(driver: object) -> WebElement | bool:
            return next((e for e in driver.find_elements(By.CSS_SELECTOR, css)  # type: ignore[attr-defined]
                         if e.is_displayed() and text in e.text and self.on_screen(e)), False)

        try:
            found: WebElement = WebDriverWait(self.driver, 15, ignored_exceptions=(StaleElementReferenceException,)).until(seen)
        except TimeoutException:
            raise AssertionError(f"{text!r} is not on screen after the last tap ({self.size})") from None
        return found

    def type_into(self, css: str, text: str) -> None:
        """Type into a text box and press Enter (what a phone's keyboard does with Go): one tap."""
        box = self.find(css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)  # type: ignore[attr-defined]
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(text, Keys.ENTER)
        self.taps += 1
        self.idle()

    def choose(self, key: str, option: str) -> None:
        """Open a drop-down and tap one of its options: two taps."""
        self.tap(self.find(f"[class*='st-key-{key}'] button[aria-label='Open']"))
        self.tap(self.find("[role='option']", option))

    def double_tap(self, element: WebElement) -> None:
        """Two taps in quick succession, as an impatient finger does: the second lands while the first is answered."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)  # type: ignore[attr-defined]
        self.driver.execute_script("arguments[0].click(); setTimeout(() => arguments[0].click(), 60);", element)  # type: ignore[attr-defined]
        self.taps += 2
        self.idle()


def open_phone(driver: object, url: str, size: str, name: str, first: bool, story: str = "evening") -> Phone:
    if not first:
        driver.switch_to.new_window("tab")  # type: ignore[attr-defined]
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",  # type: ignore[attr-defined]
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    driver.get(url)  # type: ignore[attr-defined]
    phone = Phone(driver, size, driver.current_window_handle, name, story)  # type: ignore[attr-defined]
    phone.wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Score a hand')]")))
    phone.idle()
    return phone


def photo_hand_saved_twice(a: Phone) -> int:
    """Phone A: the sample photo, how it was won, the score on screen; the hand saved with a double tap. Returns the taps to the score."""
    a.upload(a.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "input[type='file']"))), SAMPLE)
    a.find("[class*='st-key-photo-w'] svg")
    a.step("photo-read")
    a.tap(a.find("[class*='st-key-wonby-w'] button", "discard"))
    metric = a.answer_on_screen("[data-testid='stMetricValue']", SAMPLE_SCORE)
    assert metric.text.split()[0] == SAMPLE_SCORE
    taps_to_score = a.taps
    a.step("scored")
    # A mistap: the picked tile given a wrong face (the score changes), then taken back where the finger is.
    a.tap(a.find("[class*='st-key-palette-w-face'] [class*='st-key-w_face_'][class*='_3D'] button"))
    # the score goes: another score, or none where the wrong face leaves no complete hand (the summary then goes too)
    a.wait.until(lambda d: not any(SAMPLE_SCORE in e.text for e in d.find_elements(By.CSS_SELECTOR, "[class*='st-key-summary']")))
    a.step("mistapped")
    a.tap(a.find("[class*='st-key-w_undo_'][class*='_fix'] button"))
    a.answer_on_screen("[data-testid='stAlert']", "took back")
    a.wait.until(lambda d: a.metric() == SAMPLE_SCORE)
    a.step("mistap-undone")
    a.tap(a.find("[data-testid='stExpander'] summary", "Save this hand to the history"))
    a.type_into("[class*='st-key-w_save_title'] input", "Friday at the Lees'")
    a.type_into("[class*='st-key-w_save_players'] input", ", ".join(PLAYERS))
    a.double_tap(a.find("[class*='st-key-w_save_hand'] button"))
    a.answer_on_screen("[data-testid='stAlert']", "Saved as hand 1 of game 1")
    assert not [b for b in a.driver.find_elements(By.CSS_SELECTOR, "[class*='st-key-w_save_hand'] button")  # type: ignore[attr-defined]
                if b.is_displayed()], "after saving, Save is not offered again"
    a.step("saved-twice")
    return taps_to_score


def open_seat(p: Phone, seat: int) -> None:
    """Unfold a seat by tapping its line (one tap), unless it is the one open already: the seats fold one at a time."""
    details = p.find(f"[class*='st-key-w_seat_open_{seat}'] details")
    if details.get_attribute("open") is None:
        p.tap(p.find(f"[class*='st-key-w_seat_open_{seat}'] summary"))
        p.wait.until(lambda d: p.find(f"[class*='st-key-w_seat_open_{seat}'] details").get_attribute("open") is not None)


def settle_typed_deal(p: Phone, hands: list[str], winner: int, *, first_from_score_page: bool = False) -> None:
    """A deal on *Settle the table*: four hands (typed, or the first from *Score a hand*), who went out and how, a seat at a time."""
    p.choose("w_winner", PLAYERS[winner])
    for i, hand in enumerate(hands):
        open_seat(p, i)
        if i == 0 and first_from_score_page:
            p.tap(p.find("[class*='st-key-w_seat_from_review_0'] button"))
        else:
            p.type_into(f"[class*='st-key-w_seat_hand_{i}'] input", hand)
        if i == winner and not (first_from_score_page and winner == 0):
            p.type_into(f"[class*='st-key-w_seat_winning_{winner}'] input", "2D")
            p.choose(f"w_seat_won_by_{winner}", "discard")
    p.tap(p.find("[class*='st-key-w_settle'] button"))
    p.answer_on_screen("h3", "Scores")


def save_deal_twice(p: Phone, deal: int) -> None:
    p.tap(p.find("[data-testid='stExpander'] summary", "Save this deal to the history"))
    p.double_tap(p.find("[class*='st-key-w_save_deal'] button"))
    p.answer_on_screen("[data-testid='stAlert']", f"Saved deal {deal} of game 1")


def next_deal(p: Phone) -> None:
    p.tap(p.find("[class*='st-key-w_next_deal'] button"))
    p.wait.until(lambda d: p.find("[class*='st-key-w_seat_hand_0'] input").get_attribute("value") == "")
    p.wait.until(lambda d: all("no hand yet" in p.find(f"[class*='st-key-w_seat_open_{i}'] summary").text for i in range(4)))


def export_json(p: Phone) -> dict[str, object]:
    p.tap(p.find("[class*='st-key-w_export_json'] button"))
    downloads = Path(p.driver.downloads)  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done = sorted(downloads.glob("*.json")) if downloads.exists() else []
        if done:
            time.sleep(0.5)
            return json.loads(done[-1].read_text())  # type: ignore[no-any-return]
        time.sleep(0.5)
    raise AssertionError("the JSON export did not arrive")


@pytest.mark.parametrize("size", list(SIZES))
def test_an_evening_at_one_table(server: str, browser: object, size: str) -> None:
    driver = browser
    width, height = SIZES[size]
    driver.set_window_size(width, height + 200)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(exist_ok=True)
    a = open_phone(driver, server, size, "a", first=True)
    b: Phone | None = None
    try:
        taps_to_score = photo_hand_saved_twice(a)
        # Phone B opens the page: it is on the game phone A started, and its deal is typed.
        b = open_phone(driver, server, size, "b", first=False)
        caption = b.find("[data-testid='stCaptionContainer']", "Game:").text
        assert "Friday" in caption and "Ann" in caption, caption
        b.navigate("Settle the table")
        names = [b.find(f"[class*='st-key-w_player_{i}'] input").get_attribute("value") for i in range(4)]
        assert names == PLAYERS, f"Settle the table sits the game's players: {names}"
        b.step("joined")
        # Deal 1 on phone A: the photographed hand (saved already) and three typed.
        a.use().navigate("Settle the table")
        settle_typed_deal(a, ["", *LOSERS], 0, first_from_score_page=True)
        save_deal_twice(a, 1)
        a.step("deal-1")
        # Deals 2 to 4 on phone B, typed; deal 4 is saved by mistake twice over and undone once.
        b.use().driver.refresh()
        b.wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Settle the table')]")))
        b.idle()
        for deal, winner in ((2, 1), (3, 2), (4, 3)):
            settle_typed_deal(b, [WINNER if i == winner else LOSERS[(i - winner) % 4 - 1] for i in range(4)], winner)
            save_deal_twice(b, deal)
            b.step(f"deal-{deal}")
            next_deal(b)
        settle_typed_deal(b, [WINNER, *LOSERS], 0)
        save_deal_twice(b, 5)
        b.step("deal-5-by-mistake")
        b.navigate("History")
        b.tap(b.find("[class*='st-key-w_undo_deal_5'] button"))
        b.answer_on_screen("[data-testid='stAlert']", "Deal 5 taken back")
        sheet = b.find("[class*='st-key-score-sheet']")
        b.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", sheet)  # type: ignore[attr-defined]
        b.step("score-sheet")
        data = export_json(b)
        hands = data["hands"]
        settlements = data["settlements"]
        assert isinstance(hands, list) and isinstance(settlements, list)
        assert sorted(s["deal"] for s in settlements) == [1, 2, 3, 4], "four deals, the undone one gone, none twice"
        assert len(hands) == 16, f"four hands a deal, none kept twice: {len(hands)}"
        sums = {p: sum(s["settlement"]["net"][p] for s in settlements) for p in PLAYERS}
        score_sheet = data["score_sheet"]
        assert isinstance(score_sheet, dict) and score_sheet["totals"] == sums, "the sheet's totals are the sum of the settlements"
        left = dict(sums)
        for t in score_sheet["settle_up"]:
            left[t["from"]] += t["amount"]
            left[t["to"]] -= t["amount"]
        assert left == dict.fromkeys(PLAYERS, 0), "the end-of-evening transfers settle every running total to 0"
        if size == "phone":
            page_width = driver.execute_script("return document.documentElement.scrollWidth")  # type: ignore[attr-defined]
            assert page_width <= SIZES["phone"][0] + 1, f"the page is {page_width}px wide on a 390px phone"
    except (WebDriverException, TimeoutException, AssertionError):
        driver.save_screenshot(str(ARTIFACTS / f"e2e-evening-{size}-failure.png"))  # type: ignore[attr-defined]
        (ARTIFACTS / f"e2e-evening-{size}-failure.html").write_text(driver.page_source)  # type: ignore[attr-defined]
        raise
    finally:
        (ARTIFACTS / f"e2e-evening-{size}-steps.json").write_text(json.dumps(
            {phone.name: {"steps": [{"step": s, "taps_so_far": t, "seconds": sec} for s, t, sec in phone.steps], "taps": phone.taps}
             for phone in (a, b) if phone is not None}, indent=1))
    assert taps_to_score == 2, "the sample photo to its right score: choose the photo, tap discard"
