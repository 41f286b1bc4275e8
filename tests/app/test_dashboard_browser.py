"""The dashboard in a real headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by selenium): it opens, a pipeline created through the API
appears and its jobs move as the clock advances, without a reload; its controls act. The
screenshot README.md shows is written to docs/dashboard.png.

Without Chromium the tests skip, except under ``CI=true`` where they fail: CI installs it
(``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakeservice import FakeService
from fakeservice.ci.models import latest_jobs

# the README's screenshot is rewritten only when asked (FAKESERVICE_SCREENSHOT=1), so that a
# test run never leaves the work tree modified
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "dashboard.png"
WRITE_SCREENSHOT = os.environ.get("FAKESERVICE_SCREENSHOT") == "1"
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
ROOT = {"PRIVATE-TOKEN": "root-token"}
WAIT = 20.0


def browser_paths() -> tuple[str, str] | None:
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    paths = browser_paths()
    if paths is None:
        reason = "no Chromium: install the chromium and chromium-driver packages"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI must have them: see .ci/run)")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1440,1100",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=paths[1]), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(condition)
    except TimeoutException:
        pytest.fail(f"the dashboard never showed {what}")


def click(driver: Any, by: str, where: str) -> bool:
    """Click an element the page may redraw meanwhile (False: try again)."""
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        driver.find_element(by, where).click()
    except StaleElementReferenceException:
        return False
    return True


def job_chips(driver: Any, pipeline_id: int) -> dict[str, str]:
    """Job name -> status as the page draws them for one pipeline."""
    return driver.execute_script(
        """
        const row = document.querySelector(`#panel-pipelines tr[data-id="${arguments[0]}"]`);
        if (!row) return null;
        const chips = row.querySelectorAll(".col-jobs .chip");
        return Object.fromEntries([...chips].map((c) => [c.dataset.label, c.dataset.status]));
        """,
        pipeline_id,
    )


def api_jobs(url: str, pipeline_id: int) -> dict[str, str]:
    jobs = httpx.get(f"{url}/api/v4/projects/1/pipelines/{pipeline_id}/jobs", headers=ROOT)
    return {job["name"]: job["status"] for job in jobs.json()}


def store_jobs(svc: FakeService, pipeline_id: int) -> dict[str, str]:
    """Job name -> status read from the store, without a request."""
    with svc.store.lock:
        return {job.name: job.status for job in latest_jobs(svc.store, pipeline_id)}


def store_pipeline(svc: FakeService, pipeline_id: int) -> str:
    with svc.store.lock:
        return str(svc.store.tables["ci_pipelines"].get(pipeline_id).status)


def screenshot(driver: Any, svc: FakeService) -> None:
    """docs/dashboard.png, the same on every run: the page settled, nothing animating."""
    now = svc.clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    wait_for(driver, lambda d: d.find_element("id", "clock-now").text == now, "the clock")
    driver.execute_script(
        "const style = document.createElement('style');"
        "style.textContent = '* { animation: none !important; caret-color: transparent; }';"
        "document.head.append(style); document.activeElement.blur();"
    )
    if WRITE_SCREENSHOT:
        driver.save_screenshot(str(SCREENSHOT))
    else:
        assert driver.get_screenshot_as_png().startswith(b"\x89PNG")


def open_dashboard(driver: Any, url: str) -> None:
    driver.get(url + "/_fake/dashboard")
    wait_for(
        driver,
        lambda d: d.execute_script(
            "return document.body.dataset.loaded === 'true'"
            " && document.querySelector('#live').textContent === 'live'"
        ),
        "its first state and a live event stream",
    )
    driver.execute_script("window.notReloaded = true")


def test_a_pipeline_appears_and_moves_without_a_reload(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    svc = FakeService()
    svc.runner.set_mode("timed")
    with svc.serve() as url:
        open_dashboard(browser, url)
        assert "root" in browser.find_element(By.ID, "panel-users").text
        created = httpx.post(
            url + "/api/v4/projects/acme%2Fwebsite/pipeline", headers=ROOT, json={"ref": "main"}
        )
        assert created.status_code == 201
        pipeline_id = created.json()["id"]
        first = wait_for(browser, lambda d: job_chips(d, pipeline_id), "the new pipeline")
        assert first == api_jobs(url, pipeline_id)
        wait_for(
            browser,
            lambda d: d.find_elements(By.XPATH, "//table[@id='journal']//td[.='POST']"),
            "the POST in the request journal",
        )
        seen = [first]
        requests_so_far = svc.journal.count()
        for _ in range(30):  # advance the clock with the page's own button
            if store_pipeline(svc, pipeline_id) in ("success", "failed", "canceled"):
                break
            before = svc.clock.now()
            browser.find_element(By.CSS_SELECTOR, "#clock-form [data-seconds='10']").click()
            wait_for(browser, lambda d, t=before: svc.clock.now() > t, "the clock moved")
            expected = store_jobs(svc, pipeline_id)
            wait_for(
                browser, lambda d, e=expected: job_chips(d, pipeline_id) == e, f"jobs {expected}"
            )
            if seen[-1] != expected:
                seen.append(expected)
            if len(seen) == 3:
                screenshot(browser, svc)  # a pipeline mid-way
        # the page followed the jobs by itself: no API request was made meanwhile
        assert svc.journal.count() == requests_so_far
        assert len(seen) >= 3, f"the jobs did not move: {seen}"
        assert any("running" in states.values() for states in seen)
        final = api_jobs(url, pipeline_id)
        assert set(final.values()) <= {"success", "failed", "canceled", "skipped", "manual"}
        assert job_chips(browser, pipeline_id) == final
        status = browser.execute_script(
            "return document.querySelector(arguments[0]).textContent",
            f'#panel-pipelines tr[data-id="{pipeline_id}"] .col-status .chip',
        )
        assert (
            status
            == svc.request(
                "GET", f"/projects/1/pipelines/{pipeline_id}", token="root-token"
            ).json()["status"]
        )
        assert browser.execute_script("return window.notReloaded === true")
        assert browser.find_element(By.ID, "clock-now").text == svc.clock.now().strftime(
            "%Y-%m-%dT%H:%M:%SZ"
        )
    assert SCREENSHOT.stat().st_size > 10_000


def test_the_controls_finish_a_job_and_add_faults_and_rate_limits(browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    svc = FakeService()
    with svc.serve() as url:
        open_dashboard(browser, url)
        Select(browser.find_element(By.ID, "runner-mode")).select_by_visible_text("manual")
        created = httpx.post(
            url + "/api/v4/projects/acme%2Fwebsite/pipeline", headers=ROOT, json={"ref": "main"}
        ).json()
        chips = wait_for(browser, lambda d: job_chips(d, created["id"]), "the new pipeline")
        name = next(job for job, status in chips.items() if status == "pending")
        chip = f'//tr[@data-id="{created["id"]}"]//span[@data-job-id and @data-label="{name}"]'
        job_id = int(browser.find_element(By.XPATH, chip).get_attribute("data-job-id"))
        wait_for(browser, lambda d: click(d, By.XPATH, chip), "the job's chip")  # fills its id
        assert browser.find_element(By.ID, "job-id").get_attribute("value") == str(job_id)
        Select(browser.find_element(By.ID, "job-outcome")).select_by_visible_text("failed")
        browser.find_element(By.ID, "job-reason").send_keys("script_failure")
        browser.find_element(By.ID, "job-finish").click()
        wait_for(browser, lambda d: job_chips(d, created["id"])[name] == "failed", "failed")
        job = svc.runner.job(job_id)
        assert (job.status, job.failure_reason) == ("failed", "script_failure")

        browser.find_element(By.ID, "fault-path").send_keys("/api/v4/version")
        browser.find_element(By.ID, "fault-status").send_keys("503")
        browser.find_element(By.CSS_SELECTOR, "#fault-form button[type=submit]").click()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#faults li"), "a fault")
        assert httpx.get(url + "/api/v4/version", headers=ROOT).status_code == 503
        browser.find_element(By.ID, "limit-limit").send_keys("5")
        browser.find_element(By.CSS_SELECTOR, "#limit-form button[type=submit]").click()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#rate-limits li"), "a limit")
        assert [rule.limit for rule in svc.rate_limits.rules] == [5]
        browser.find_element(By.CSS_SELECTOR, "#rate-limits li button").click()
        wait_for(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rate-limits li"), "none")
        assert svc.rate_limits.rules == []
        unknown = browser.find_element(By.ID, "job-id")
        unknown.clear()
        unknown.send_keys("999999")
        browser.find_element(By.ID, "job-finish").click()
        message = wait_for(
            browser, lambda d: d.find_element(By.ID, "message").text, "an error message"
        )
        assert message.startswith("POST ci/jobs/999999/finish: 404")
        assert svc.runner.settings()["mode"] == "manual"
