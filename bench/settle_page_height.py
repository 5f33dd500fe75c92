"""How tall *Settle the table* grows on a phone (390x844, headless Chromium) as four seats' photos are read.

Run from the repository root (``PYTHONPATH=$PWD:$PWD/datasets python bench/settle_page_height.py``);
prints the page's height in CSS pixels, empty and after each photo. Works on a page whose seats fold
(it opens each seat by its line, as a player does) and on one whose seats are all drawn open.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from tests.e2e.test_browser import CHROMEDRIVER, CHROMIUM, SAMPLE, Player, Service, running_app, webdriver

PHONE = (390, 844)


def page_height(driver: object) -> int:
    return int(driver.execute_script(  # type: ignore[attr-defined]
        "const main = document.querySelector(\"[data-testid='stMain']\");"
        "return Math.max(document.documentElement.scrollHeight, main ? main.scrollHeight : 0);"))


def open_seat(p: Player, seat: int) -> None:
    """Tap the seat's line if the seats fold and this one is folded."""
    try:
        details = p.driver.find_element(By.CSS_SELECTOR, f"[class*='st-key-w_seat_open_{seat}'] details")  # type: ignore[attr-defined]
    except NoSuchElementException:
        return  # a page whose seats do not fold
    if details.get_attribute("open") is None:
        p.tap(p.find(f"[class*='st-key-w_seat_open_{seat}'] summary"))


def main(screenshot: str | None = None) -> None:
    tmp = Path(tempfile.mkdtemp())
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 f"--user-data-dir={tmp / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        with running_app(tmp) as url:
            width, height = PHONE
            driver.set_window_size(width, height + 200)
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
            driver.get(url)
            p = Player(driver, "phone")
            p.wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Score a hand')]")))
            p.idle()
            p.navigate("Settle the table")
            print(f"settle page, empty: {page_height(driver)} px", flush=True)
            for seat in range(4):
                open_seat(p, seat)
                uploader = p.wait.until(ec.presence_of_element_located(
                    (By.CSS_SELECTOR, f"[class*='st-key-w_seat_photo_{seat}'] input[type='file']")))
                uploader.send_keys(str(SAMPLE))
                p.idle()
                p.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, f"[class*='st-key-photo-w_s{seat}'] svg")))
                print(f"after photo {seat + 1}: {page_height(driver)} px", flush=True)
            if screenshot:
                driver.save_screenshot(screenshot)
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
