"""The built site in a real headless Chromium (Debian's chromium and chromium-driver, through
Selenium): search narrows to a typed code from the keyboard, every link resolves inside the site,
every code's type URI names an existing page, and hostile registry text shows as text and runs
nothing. Pages load from file://, as someone opening the folder would.

Without the browser these tests skip, with the reason; in CI (the CI variable set) they fail
instead: .ci/run installs the browser.

    python tests/test_site_browser.py --screenshots docs   # docs/site-index.png, docs/site-code.png
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REGISTRY, ROOT, build_to  # noqa: E402
from test_site import HOSTILE, HOSTILE_REGISTRY  # noqa: E402

BROWSER = ("chromium", "chromium-browser", "google-chrome")
DRIVER = "chromedriver"


def _find() -> tuple[str, str] | str:
    """(browser, driver), or why they cannot be used."""
    browser = next((found for name in BROWSER if (found := shutil.which(name))), None)
    driver = shutil.which(DRIVER) or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if browser is None or driver is None:
        return "no headless Chromium here: apt-get install chromium chromium-driver (.ci/run does)"
    return browser, driver


def _driver(browser: str, driver: str, width: int = 1200, height: int = 900, dark: bool = False) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}",
                "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update"):
        options.add_argument(arg)
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    found = _find()
    if isinstance(found, str):
        if os.environ.get("CI"):
            pytest.fail(f"the site's browser tests cannot run in CI: {found}")
        pytest.skip(found)
    driver = _driver(*found)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def acme_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("acme")
    build_to(REGISTRY, out, "site")
    return out / "site"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile")
    registry = out / "errors.yaml"
    registry.write_text(HOSTILE_REGISTRY, encoding="utf-8")
    build_to(registry, out, "site")
    return out / "site"


def _open(chrome: Any, page: Path) -> None:
    chrome.get(page.as_uri())
    chrome.find_element("css selector", "#search")  # the page is there
    chrome.execute_script("return document.readyState")


def _problems(chrome: Any) -> list[str]:
    """What the page reported: script errors, failed loads and any alert it opened."""
    from selenium.common.exceptions import NoAlertPresentException

    found = [entry["message"] for entry in chrome.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    try:
        alert = chrome.switch_to.alert
        found.append(f"alert: {alert.text}")
        alert.dismiss()
    except NoAlertPresentException:
        pass
    return found


def _search(chrome: Any, text: str) -> list[str]:
    from selenium.webdriver.common.keys import Keys

    body = chrome.find_element("tag name", "body")
    body.send_keys("/")  # the shortcut focuses the search field
    field = chrome.switch_to.active_element
    assert field.get_attribute("id") == "search"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text)
    return [_code(e) for e in chrome.find_elements("css selector", "#results [role=option]")]


def _code(option: Any) -> str:
    """The code a result names (textContent: results scrolled out of view have no visible text)."""
    return str(option.find_element("tag name", "code").get_attribute("textContent"))


def test_typing_a_code_narrows_the_search_to_it_and_enter_opens_its_page(chrome: Any, acme_site: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    _open(chrome, acme_site / "index.html")
    assert len(_search(chrome, "RESOURCE")) >= 1
    # Case does not matter; the renamed code's old name leads to it too (its page says so), listed after it.
    assert _search(chrome, "tenant_unknown") == ["TENANT_UNKNOWN", "UNKNOWN_DOMAIN"]
    assert _search(chrome, "unknown_domain") == ["UNKNOWN_DOMAIN"]  # its page says it was renamed, and links on
    _search(chrome, "tenant_unknown")
    selected = chrome.find_element("css selector", "#results [aria-selected=true]")
    assert _code(selected) == "TENANT_UNKNOWN"
    chrome.switch_to.active_element.send_keys(Keys.ENTER)
    assert chrome.current_url == (acme_site / "TENANT_UNKNOWN" / "index.html").as_uri()
    assert chrome.find_element("tag name", "h1").text == "TENANT_UNKNOWN"
    # Descriptions and categories are searched too; arrows move through the results.
    found = _search(chrome, "payment processor")
    assert found == ["PAYMENT_TIMEOUT"]
    matches = _search(chrome, "validation")
    assert len(matches) > 2
    field = chrome.switch_to.active_element
    field.send_keys(Keys.ARROW_DOWN)
    assert _code(chrome.find_element("css selector", "#results [aria-selected=true]")) == matches[1]
    assert field.get_attribute("aria-activedescendant") == "result-1"
    field.send_keys(Keys.ESCAPE)
    assert not chrome.find_element("id", "results").is_displayed()
    assert _problems(chrome) == []


def _crawl(chrome: Any, site: Path) -> dict[str, set[str]]:
    """Every page reachable from the index: url -> the ids on it; each link checked on the way."""
    seen: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []
    queue = [(site / "index.html").as_uri()]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        chrome.get(url)
        seen[url] = set(chrome.execute_script("return Array.from(document.querySelectorAll('[id]'), e => e.id)"))
        for href in chrome.execute_script("return Array.from(document.querySelectorAll('a[href]'), a => a.href)"):
            target, _, fragment = href.partition("#")
            path = Path(unquote(urlsplit(target).path))
            assert target.startswith("file://") and path.is_relative_to(site), f"{url} links outside the site: {href}"
            assert path.is_file(), f"{url} links to a missing page: {href}"
            links.append((target, fragment))
            if path.suffix == ".html":
                queue.append(target)
        assert _problems(chrome) == [], url
    for target, fragment in links:
        assert not fragment or fragment in seen[target], f"no #{fragment} in {target}"
    return seen


def test_every_link_resolves_inside_the_site_and_every_type_uri_names_a_page(chrome: Any, acme_site: Path) -> None:
    from errgen.contract import view
    from conftest import load_registry

    pages = _crawl(chrome, acme_site)
    contract = view(load_registry(REGISTRY))
    for row in contract.codes:
        page = acme_site / row.type_uri.removeprefix(contract.policy.problem_base) / "index.html"
        assert page.as_uri() in pages, row.code  # reachable from the index
        chrome.get(page.as_uri())
        assert chrome.find_element("tag name", "h1").text == row.code
    old_names = {old for row in contract.codes for old in row.renamed_from}
    assert old_names and all((acme_site / old / "index.html").as_uri() in pages for old in old_names)
    # The codes, the old names' pages (a renamed code's type URI still resolves), the index, the changelog.
    assert len(pages) == len(contract.codes) + len(old_names) + 2


def test_hostile_registry_text_shows_as_text_and_runs_nothing(chrome: Any, hostile_site: Path) -> None:
    pages = _crawl(chrome, hostile_site)  # no alert and no console error on any page
    assert len(pages) == 4 + 2
    for page in ("SLOW_DOWN/index.html", "index.html", "changelog.html"):
        chrome.get((hostile_site / page).as_uri())
        main = chrome.find_element("tag name", "main")
        text = chrome.execute_script("return arguments[0].textContent", main)
        assert HOSTILE.replace("\u2028", "") in text.replace("\u2028", ""), page
        assert chrome.execute_script("return document.scripts.length") == 2  # the site's own two
        assert chrome.execute_script("return document.querySelectorAll('main img, main b, main script').length") == 0
        assert _problems(chrome) == [], page
    chrome.get((hostile_site / "index.html").as_uri())
    found = _search(chrome, "<script>alert(1)")
    assert found == ["SLOW_DOWN"]
    small = chrome.find_element("css selector", "#results [role=option] small")
    assert HOSTILE.split(" \u2028")[0] in chrome.execute_script("return arguments[0].textContent", small)
    found = _search(chrome, "com.example.v1#missing")
    assert found == ["com.example.v1#Missing"]
    assert _problems(chrome) == []


def screenshots(folder: Path) -> None:
    """docs/site-index.png and docs/site-code.png: the default registry's site, as a browser shows it."""
    import tempfile

    found = _find()
    if isinstance(found, str):
        raise SystemExit(found)
    with tempfile.TemporaryDirectory() as tmp:
        build_to(REGISTRY, Path(tmp), "site")
        site = Path(tmp) / "site"
        chrome = _driver(*found, width=1100, height=820)
        try:
            chrome.get((site / "index.html").as_uri())
            _search(chrome, "tenant")
            chrome.save_screenshot(str(folder / "site-index.png"))
            chrome.set_window_size(1100, 1500)
            chrome.get((site / "RESOURCE_NOT_FOUND" / "index.html").as_uri())
            chrome.save_screenshot(str(folder / "site-code.png"))
        finally:
            chrome.quit()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--screenshots"] and len(sys.argv) == 3:
        screenshots(Path(sys.argv[2]))
    else:
        raise SystemExit(__doc__)
