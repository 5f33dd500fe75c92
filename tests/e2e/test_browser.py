"""End to end in a real browser: `pungchow app` serves the page, headless Chromium uploads a photo
and finds the score. Leaves a screenshot in ``artifacts/`` for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)", allow_module_level=True)

from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """`pungchow app` on a free localhost port, with a fresh history file; stopped afterwards."""
    port = free_port()
    command = [shutil.which("pungchow") or "", "app"] if shutil.which("pungchow") else [sys.executable, "-m", "pungchow", "app"]
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        command + ["--port", str(port), "--address", "127.0.0.1", "--db", str(tmp_path / "history.sqlite3")],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"pungchow app did not start:\n{(tmp_path / 'server.log').read_text(errors='replace')}")
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1400,2400"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def sample_photo() -> Path:
    """The finished hand that ships with pungchow: the shipped models read every tile of it."""
    return ROOT / "recognizer" / "samples" / "finished-hand.jpg"


def test_upload_a_photo_and_see_the_score(server: str, browser: object, tmp_path: Path) -> None:
    driver = browser  # type: ignore[assignment]
    wait = WebDriverWait(driver, 120)
    driver.get(server)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        wait.until(ec.presence_of_element_located((By.XPATH, "//h1[contains(., 'Score a hand')]")))
        upload = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "input[type='file']")))
        upload.send_keys(str(sample_photo()))
        wait.until(ec.presence_of_element_located((By.XPATH, "//h2[contains(., 'Score')]")))
        time.sleep(3)
        driver.save_screenshot(str(ARTIFACTS / "e2e-photo.png"))  # type: ignore[attr-defined]
        value = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid='stMetricValue']")))
        assert value.text.strip().split()[0] == "112"  # recognizer/samples/README.md: the sample hand under harr-1922
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", value)  # type: ignore[attr-defined]
        assert driver.find_elements(By.XPATH, "//*[contains(., 'Harr')]")  # type: ignore[attr-defined]
    except WebDriverException:
        driver.save_screenshot(str(ARTIFACTS / "e2e-failure.png"))  # type: ignore[attr-defined]
        (ARTIFACTS / "e2e-failure.html").write_text(driver.page_source)  # type: ignore[attr-defined]
        raise
    time.sleep(1)
    driver.save_screenshot(str(ARTIFACTS / "e2e-score.png"))  # type: ignore[attr-defined]
    assert (ARTIFACTS / "e2e-score.png").stat().st_size > 0
