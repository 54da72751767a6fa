"""The API docs page (/docs, Swagger UI from the swagger-ui-bundle package) in a real headless
Chromium, under its own Content-Security-Policy: it renders every operation, a request made with
"Try it out" gets its answer, nothing breaks the policy, and nothing is fetched from another site."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from tests.e2e.browsing import WIDE, game_stacks, launch, watched_page

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def base_url(redis_url: str) -> Iterator[str]:
    with game_stacks(redis_url, workers=False) as stack:
        yield stack("catan")


def test_the_docs_render_under_their_own_policy_with_nothing_from_elsewhere(browser: Any, base_url: str) -> None:
    answer = requests.get(base_url + "/docs", timeout=10)
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self' 'sha256-" in policy, policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy and "frame-ancestors 'none'" in policy
    # The bundle's demo page (it loads a spec from another site) is not served, nor its other files.
    for path in ("index.html", "oauth2-redirect.html", "swagger-initializer.js"):
        assert requests.get(f"{base_url}/docs/static/{path}", timeout=10).status_code == 404, path
    elsewhere: list[str] = []
    with watched_page(browser, viewport=WIDE) as page:
        # As offline: a request to any other host is recorded and refused.
        own = urlsplit(base_url).netloc

        def offline(route: Any) -> None:
            if urlsplit(route.request.url).netloc == own:
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()
        page.route("**/*", offline)
        page.goto(base_url + "/docs")
        page.wait_for_selector(".opblock", timeout=30_000)
        assert page.locator(".opblock").count() >= 15
        assert "Catan" in page.locator(".info .title").inner_text()
        # "Try it out" on GET /healthz: the page calls the service and shows its answer.
        health = page.locator(".opblock-get", has=page.locator("[data-path='/healthz']")).first
        health.locator(".opblock-summary").click()
        health.get_by_role("button", name="Try it out").click()
        health.get_by_role("button", name="Execute").click()
        health.locator(".live-responses-table tbody .response-col_status").first.wait_for()
        assert health.locator(".live-responses-table tbody .response-col_status").first.inner_text().strip() == "200"
    assert not elsewhere, elsewhere
