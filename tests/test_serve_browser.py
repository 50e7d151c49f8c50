"""The chart explorer in a real browser (headless Chromium driven by Selenium) against
``pokerlab serve`` on a tiny release: two clicks down the tree, the grid's frequencies for
named classes against the chart file, the percentile chart, compare mode and a postflop pack.
Screenshots go to the test's temporary directory.

Skips when Selenium, Chromium or chromedriver is missing, unless POKERLAB_REQUIRE_BROWSER=1
(set by CI, which installs Debian's chromium and chromium-driver), where it fails instead.
"""

import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from pokerlab.charts import load_chart
from pokerlab.encoding import decode
from pokerlab.serve.app import STATIC_DIR
from pokerlab.serve.pack import Pack

pytestmark = pytest.mark.browser

REQUIRED = os.environ.get("POKERLAB_REQUIRE_BROWSER") == "1"
BROWSER = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
DRIVER = shutil.which("chromedriver")


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    if not BROWSER or not DRIVER:
        return "chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _missing()
    if reason:
        if REQUIRED:
            pytest.fail(f"POKERLAB_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1100", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server(served_release):
    root, _ = served_release
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
        assert match, proc.stderr.read() if proc.poll() is not None else "no URL printed"
        yield match.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def chart_frequencies(chart: dict, node_id: str, name: str) -> list[float]:
    """The class's action frequencies as the chart file stores them (1/90 levels, renormalised)."""
    node = next(n for n in chart["nodes"] if n["id"] == node_id)
    k = chart["classes"].index(name)
    freq = np.array([decode(node["strategy"][a])[k] for a in node["actions"]])
    return list(freq / freq.sum())


def test_explorer_in_a_real_browser(browser, server, served_release, tmp_path):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    _, made = served_release
    chart = load_chart(made["charts"]["cash/3max/15bb"])
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    css = lambda sel: browser.find_elements(By.CSS_SELECTOR, sel)  # noqa: E731
    crumbs = lambda: [b.text for b in css("#crumbs button")]  # noqa: E731

    def cell(name: str):
        return browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-class="{name}"]')

    def shot(name: str) -> None:
        browser.save_screenshot(str(tmp_path / f"{name}.png"))
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000

    browser.get(server)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert crumbs() == ["root"] and "BTN to act" in browser.find_element(By.ID, "node").text
    assert len(css("#grid .cell")) == 169
    shot("1-root")

    # two actions: BTN opens, SB folds -> BB faces the open (node "RF")
    css('#actions button[data-action^="raise_"]')[0].click()
    wait.until(lambda d: len(crumbs()) == 2 and "SB to act" in d.find_element(By.ID, "node").text)
    shot("2-after-btn-open")
    css('#actions button[data-action="fold"]')[0].click()
    wait.until(lambda d: len(crumbs()) == 3 and "BB to act" in d.find_element(By.ID, "node").text)
    assert crumbs()[1].startswith("BTN raise") and crumbs()[2] == "SB fold"
    codes = [{"fold": "F", "call": "C", "allin": "A"}.get(b.get_attribute("data-action"), "R")
             for b in css("#actions button")]
    assert codes == next(n for n in chart["nodes"] if n["id"] == "RF")["actions"]
    for name in ("AA", "AKo", "T9s", "72o", "55"):
        drawn = json.loads(cell(name).get_attribute("data-strategy"))
        np.testing.assert_allclose(drawn, chart_frequencies(chart, "RF", name), atol=1e-6, err_msg=name)
    cell("AKo").click()
    info = browser.find_element(By.ID, "info").text
    assert info.startswith("AKo: ") and "fold:" in info
    shot("3-bb-facing-open")

    # the address is a deep link: a fresh page on it rebuilds the same path
    link = browser.current_url
    assert "node=RF" in link and "set=cash%2F3max%2F15bb" in link
    browser.get("about:blank")
    browser.get(link)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    wait.until(lambda d: len(crumbs()) == 3)
    assert crumbs()[1].startswith("BTN raise") and crumbs()[2] == "SB fold"
    assert "BB to act" in browser.find_element(By.ID, "node").text

    # back to the root through the breadcrumbs
    css("#crumbs button")[0].click()
    wait.until(lambda d: crumbs() == ["root"])

    # percentile chart: 10% of deals, classes filled strongest first
    browser.find_element(By.ID, "mode-percentile").click()
    browser.execute_script("const p = document.getElementById('percentile'); p.value = '10';"
                           "p.dispatchEvent(new Event('input'));")
    wait.until(lambda d: "10.0%" in d.find_element(By.ID, "percentile-summary").text)
    order = json.loads((STATIC_DIR / "strength-order.json").read_text())["order"]
    taken, dealt = [], 0
    for name in order:
        combos = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        if dealt + combos > 0.10 * 1326:
            break
        dealt += combos
        taken.append(name)
    summary = browser.find_element(By.ID, "percentile-summary").text
    assert f"{len(taken)} classes = {100 * dealt / 1326:.2f}% of deals" in summary
    filled = {c.get_attribute("data-class") for c in css("#grid .cell") if c.get_attribute("data-strategy") == "[1,0]"}
    assert filled == set(taken)
    shot("4-percentile")

    # compare mode: cash vs mtt at the root, "enter the pot" in percentage points
    browser.find_element(By.ID, "mode-compare").click()
    wait.until(lambda d: "more often in" in d.find_element(By.ID, "legend").text and css("#grid .cell"))
    mtt = load_chart(made["charts"]["mtt/3max/15bb"])
    for name in ("AA", "K9s", "T8o"):
        enter = [1 - dict(zip(c["nodes"][0]["actions"], chart_frequencies(c, "", name)))["F"] for c in (chart, mtt)]
        label = float(cell(name).find_element(By.TAG_NAME, "span").text)
        assert abs(label - 100 * (enter[0] - enter[1])) <= 0.5 + 1e-6, name
    shot("5-compare")

    # the postflop pack: root of the river spot, a cell's combos
    browser.find_element(By.ID, "mode-postflop").click()
    wait.until(lambda d: "KsTh7d4c2s" in d.find_element(By.ID, "node").text)
    doc = Pack(made["pack"]).document("river_kt742", "root")
    grid = {c["class"]: c for c in doc["grid169"]}
    for name in ("AKo", "QQ", "98s", "72o"):
        assert json.loads(cell(name).get_attribute("data-strategy")) == grid[name]["strategy"]
    cell("AKo").click()
    wait.until(lambda d: css("#combo-table tr"))
    rows = [r.find_element(By.TAG_NAME, "td").text for r in css("#combo-table tr")[1:]]
    expected = sorted(c for c in doc["strategy"] if c[0] + c[2] in ("AK", "KA") and c[1] != c[3])
    assert sorted(rows) == expected and len(rows) == 9  # AK offsuit without the board's Ks: 3 x 3
    shot("6-postflop-root")
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not severe, severe


def test_offline_chart_page_draws_with_the_same_code(browser, served_release, tmp_path):
    """The release's per-spot page, served by a plain static server, reads its chart file."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from pokerlab.viewer import write_viewer

    root, made = served_release
    chart = load_chart(made["charts"]["cash/3max/15bb"])
    write_viewer(made["charts"]["cash/3max/15bb"], root / "viewer" / "cash" / "3max" / "15bb.html")
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                             "--directory", str(root)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = re.search(r"port (\d+)", proc.stdout.readline()).group(1)
        browser.get(f"http://127.0.0.1:{port}/viewer/cash/3max/15bb.html")
        wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        cell = lambda name: browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-class="{name}"]')  # noqa: E731
        for name in ("AA", "K9s", "T8o"):
            np.testing.assert_allclose(json.loads(cell(name).get_attribute("data-strategy")),
                                       chart_frequencies(chart, "", name), atol=1e-12)
        browser.find_element(By.CSS_SELECTOR, '#actions button[data-action="raise"]').click()
        wait.until(lambda d: "SB" in d.find_element(By.ID, "node").text)
        browser.find_element(By.CSS_SELECTOR, '#actions button[data-action="fold"]').click()
        wait.until(lambda d: "BB" in d.find_element(By.ID, "node").text)
        for name in ("AA", "AKo", "72o"):
            np.testing.assert_allclose(json.loads(cell(name).get_attribute("data-strategy")),
                                       chart_frequencies(chart, "RF", name), atol=1e-12)
        browser.save_screenshot(str(tmp_path / "7-offline-page.png"))
        # opened from the disk, the browser will not read the chart file: the page says what to do
        browser.get((root / "viewer" / "cash" / "3max" / "15bb.html").as_uri())
        wait.until(lambda d: "over HTTP" in d.find_element(By.ID, "status").text)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_postflop_card_picker_reaches_a_river_node(browser, tmp_path):
    """A tree-tier turn pack, written out and lazy: check, check, then the card picker deals the
    river; the river node's grid is the served document's."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from pokerlab.cards import parse_cards
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver
    from pokerlab.ranges import Range
    from pokerlab.serve.pack import pack_spot, write_pack

    spot = PostflopSpot(10.0, 20.0, tuple(parse_cards("KsTh7d4c")), Range.parse("QQ+,AK,JTs").weights,
                        Range.parse("TT+,AQs+,T9s").weights, BetTree.uniform((50,), ()))
    solver = PostflopSolver(spot, isomorphism=False)
    solver.solve(1.0, 100)
    root = tmp_path / "results"
    write_pack(root / "packs" / "turn", [pack_spot(solver, 1.0, "turn_kt74", tier="tree")], campaign="test")
    write_pack(root / "packs" / "lazy", [pack_spot(solver, 1.0, "turn_kt74", tier="tree", lazy=True)], campaign="test")
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
        assert match, proc.stderr.read() if proc.poll() is not None else "no URL printed"
        browser.get_log("browser")  # drop what earlier tests left (the offline page's refused file:// read)
        for name in ("turn", "lazy"):
            browser.get(match.group(1) + f"#mode=postflop&pack={name}&spot=turn_kt74")
            browser.refresh()
            browser.get(match.group(1) + "#mode=postflop")
            wait = WebDriverWait(browser, 60, ignored_exceptions=[StaleElementReferenceException])
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
            wait.until(lambda d: "KsTh7d4c" in d.find_element(By.ID, "node").text)
            browser.find_element(By.CSS_SELECTOR, '#actions button[data-action="check"]').click()
            wait.until(lambda d: "root.check" in d.find_element(By.ID, "node").text)
            browser.find_element(By.CSS_SELECTOR, '#actions button[data-action="check"]').click()
            wait.until(lambda d: d.find_element(By.ID, "deal").is_displayed())
            cards = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#deal button")]
            assert len(cards) == 48 and "Ks" not in cards and "Qc" in cards
            browser.save_screenshot(str(tmp_path / f"8-card-picker-{name}.png"))
            browser.find_element(By.CSS_SELECTOR, '#deal button[data-card="Qc"]').click()
            wait.until(lambda d: "KsQcTh7d4c" in d.find_element(By.ID, "node").text)
            assert not browser.find_element(By.ID, "deal").is_displayed()
            doc = Pack(root / "packs" / name).document("turn_kt74", "root.check.check.Qc")
            grid = {c["class"]: c for c in doc["grid169"]}
            for cls in ("AKo", "QQ", "JTs"):
                got = browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-class="{cls}"]').get_attribute("data-strategy")
                assert json.loads(got) == grid[cls]["strategy"], cls
            assert "root.check.check.Qc" in browser.current_url
            # the river's own actions lead on (a lazy pack's street was listed after the pick)
            browser.find_element(By.CSS_SELECTOR, '#actions button[data-action="check"]').click()
            wait.until(lambda d: "root.check.check.Qc.check" in d.find_element(By.ID, "node").text)
            browser.save_screenshot(str(tmp_path / f"9-river-after-the-deal-{name}.png"))
            severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
            assert not severe, severe
    finally:
        proc.terminate()
        proc.wait(timeout=10)
