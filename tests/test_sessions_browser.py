"""The sessions dashboard in a real browser (headless Chromium, Selenium; the harness of
test_serve_browser.py): ``pokerlab serve --sessions`` on a generated ledger and hand set; log a
session through the form from a proposal and see it in the table and on the bankroll curve;
drop a new export (through the page's file input, which takes the same path as a drop); open
the static export. Screenshots go to the test's temporary directory."""

import re
import subprocess
import sys
from datetime import datetime

import pytest
from sessions_fixtures import make_data_dir, timed_hands, write_equity_table
from test_serve_browser import browser  # noqa: F401  (the shared browser fixture)

from pokerlab.sessions.ledger import add_session, bankroll_curve, read_ledger

pytestmark = pytest.mark.browser


@pytest.fixture()
def served_sessions(tmp_path, equity_table):
    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    data = make_data_dir(tmp_path, eq, results)
    add_session(data, {"start": "2026-02-27T19:00", "end": "2026-02-27T21:30", "hands": "210", "stakes": "0.01/0.02",
                       "hh_net": "-3.10", "rakeback_start": "0.40", "rakeback_end": "1.25", "notes": "typed by hand"})
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(results), "--port", "0", "--sessions", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
        assert match, proc.stderr.read() if proc.poll() is not None else "no URL printed"
        yield match.group(1), data, eq
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_dashboard_in_a_real_browser(browser, served_sessions, tmp_path):  # noqa: F811
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    url, data, eq = served_sessions
    wait = WebDriverWait(browser, 60, ignored_exceptions=[StaleElementReferenceException])
    css = lambda sel: browser.find_elements(By.CSS_SELECTOR, sel)  # noqa: E731
    ready = lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true"  # noqa: E731

    def shot(name: str) -> None:
        browser.save_screenshot(str(tmp_path / f"{name}.png"))
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000

    browser.get(url + "sessions")
    wait.until(ready)
    assert [r.get_attribute("data-id") for r in css("#sessions-table tbody tr")] == ["1"]
    assert len(css("#curve circle.pt")) == 2  # the starting bankroll and session 1
    assert css('.tile[data-tile="bankroll"] b')[0].text == "$97.75"  # 100 - 3.10 + 0.85
    options = Select(browser.find_element(By.ID, "proposal")).options
    assert len(options) == 3 and "30 hands" in options[1].text
    shot("1-dashboard")

    # log the second evening from its proposal, typing the rakeback readings
    Select(browser.find_element(By.ID, "proposal")).select_by_index(2)
    form = browser.find_element(By.ID, "log-form")
    assert form.find_element(By.NAME, "start").get_attribute("value") == "2026-03-03T21:00:00"
    assert form.find_element(By.NAME, "hands").get_attribute("value") == "30"
    for name, value in (("rakeback_start", "1.25"), ("rakeback_end", "1.60"), ("notes", "second evening")):
        form.find_element(By.NAME, name).send_keys(value)
    browser.find_element(By.ID, "log-submit").click()
    wait.until(lambda d: ready(d) and len(css("#sessions-table tbody tr")) == 2)
    row = css('#sessions-table tbody tr[data-id="2"]')[0]
    assert "fresh" in row.get_attribute("class") and "second evening" in row.text and " 30 " in f" {row.text} "
    logged = read_ledger(data).sessions
    assert [s.notes for s in logged] == ["typed by hand", "second evening"]
    expected = bankroll_curve(logged, 100.0)[-1]["bankroll"]
    points = css("#curve circle.pt")
    assert len(points) == 3 and points[-1].get_attribute("data-id") == "2"
    assert float(points[-1].get_attribute("data-bankroll")) == pytest.approx(expected)
    card = css('.card[data-session="2"]')[0]
    assert "push/fold spots" in card.text and "Luck:" in card.text
    assert [r.get_attribute("data-stakes") for r in css("#stakes-table tbody tr")] == ["0.01/0.02"]
    assert "Logged session 2." in browser.find_element(By.ID, "status").text
    shot("2-after-logging")
    browser.execute_script("document.getElementById('cards').scrollIntoView()")
    shot("3-cards")

    # a new export, sent the way a drop sends it
    from pokerlab.hands.phh import write_phhs

    write_phhs(timed_hands(eq, 12, 21, datetime(2026, 3, 5, 19, 0)), tmp_path / "friday.phhs")
    browser.find_element(By.ID, "export-file").send_keys(str(tmp_path / "friday.phhs"))
    wait.until(lambda d: ready(d) and "Added friday.phhs" in d.find_element(By.ID, "status").text)
    assert "friday.phhs" in [e.get_attribute("data-export") for e in css("#exports li")]
    assert any("12 hands" in o.text for o in Select(browser.find_element(By.ID, "proposal")).options)
    # and one dropped on the drop zone (a drop event carrying the file, as the browser makes it)
    write_phhs(timed_hands(eq, 8, 22, datetime(2026, 3, 6, 18, 0)), tmp_path / "saturday.phhs")
    browser.execute_script("""
        const dt = new DataTransfer();
        dt.items.add(new File([arguments[0]], 'saturday.phhs'));
        document.getElementById('drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    """, (tmp_path / "saturday.phhs").read_text())
    wait.until(lambda d: ready(d) and "Added saturday.phhs: 8 of 8 hands imported, graded" in d.find_element(By.ID, "status").text)
    assert (data / "exports" / "saturday.phhs").read_bytes() == (tmp_path / "saturday.phhs").read_bytes()
    assert any("8 hands" in o.text for o in Select(browser.find_element(By.ID, "proposal")).options)
    browser.execute_script("document.getElementById('log-panel').scrollIntoView()")
    shot("4-after-export")
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not severe, severe

    # the static export shows the same ledger, read-only
    page = tmp_path / "static.html"
    out = subprocess.run([sys.executable, "-m", "pokerlab.cli", "sessions", "report", "--data", str(data), "--html", str(page),
                          "--results", str(tmp_path / "results")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    browser.get(page.as_uri())
    wait.until(ready)
    assert len(css("#sessions-table tbody tr")) == 2 and len(css("#curve circle.pt")) == 3
    assert not browser.find_element(By.ID, "log-panel").is_displayed()
    shot("5-static-export")
