"""Optimistic updates (`data-sc-predict`) measured behind a link with added latency: a
loopback proxy delays every byte by 150 ms each way. A predicted click shows at once, an
unpredicted one after the round trip; a wrong prediction and a refused action end on the
server's state."""

import re

import pytest
from playwright.sync_api import expect

from latency_proxy import LatencyProxy

DELAY = 0.150

# Records every value #count shows, with the time since `window.clickedAt`.
RECORD_COUNT = """() => {
  const output = document.querySelector('#count');
  window.shown = [];
  window.answers = 0;
  document.addEventListener('statecast:reply', () => window.answers++);
  document.addEventListener('statecast:error', () => window.answers++);
  new MutationObserver(() => window.shown.push([output.textContent, performance.now() - window.clickedAt]))
    .observe(output, { childList: true, characterData: true, subtree: true });
}"""

# Buttons a page could have: one without a prediction, one whose prediction is wrong,
# one whose action the server refuses. Bound like the page's own.
ADD_BUTTONS = """() => {
  const region = document.createElement('div');
  region.setAttribute('data-sc-topic', 'counter');
  region.innerHTML = `
    <button id="plain" data-sc-on-click="increment">plain +</button>
    <button id="wrong" data-sc-on-click="increment" data-sc-predict="/count += 5">wrong +</button>
    <button id="refused" data-sc-on-click='{"noSuchAction":{}}' data-sc-predict="/count += 1">refused</button>`;
  document.body.append(region);
  window.statecastModule.statecast.bind(region);
}"""


@pytest.fixture
def slow_counter(server, open_page, problems):
    proxy = LatencyProxy(server.port, DELAY)
    page = open_page(f"http://127.0.0.1:{proxy.port}/counter.html")
    # Joined, not only painted: the first paint shows 0 before the socket's snapshot.
    expect(page.locator(".demo-topic")).to_have_class(re.compile(r"\bsc-ready\b"), timeout=10_000)
    expect(page.locator("#count")).to_have_text("0", timeout=10_000)
    page.evaluate("async () => { window.statecastModule = await import('/statecast.js'); }")
    page.evaluate(ADD_BUTTONS)
    expect(page.locator("#refused")).to_be_visible(timeout=5_000)
    page.evaluate(RECORD_COUNT)
    yield page
    proxy.close()


def click(page, selector):
    """Clicks in the page itself, stamping the time first (no driver round trip between)."""
    page.evaluate("(s) => { window.clickedAt = performance.now(); document.querySelector(s).click(); }", selector)


def shown_after_click(page):
    return page.evaluate("() => { const s = window.shown; window.shown = []; return s; }")


def test_a_predicted_click_shows_at_once_and_ends_on_the_servers_state(slow_counter):
    page = slow_counter
    click(page, "#increment")
    expect(page.locator("#count")).to_have_text("1", timeout=5_000)
    # The server's answer arrives a round trip later; the reply settles the action.
    page.wait_for_function("() => window.answers === 1", timeout=5_000)
    predicted = shown_after_click(page)

    click(page, "#plain")
    expect(page.locator("#count")).to_have_text("2", timeout=5_000)
    page.wait_for_function("() => window.answers === 2", timeout=5_000)
    plain = shown_after_click(page)

    print(f"\npredicted click shown after {predicted[0][1]:.1f} ms; unpredicted after {plain[0][1]:.1f} ms")
    assert [value for value, _ in predicted] == ["1"], predicted
    assert predicted[0][1] < 50, f"the prediction took {predicted[0][1]} ms"
    assert plain[0][1] >= 2 * DELAY * 1000, f"an unpredicted click showed after {plain[0][1]} ms"


def test_a_wrong_prediction_gives_way_to_the_server(slow_counter):
    page = slow_counter
    click(page, "#wrong")
    expect(page.locator("#count")).to_have_text("5", timeout=1_000)
    expect(page.locator("#count")).to_have_text("1", timeout=5_000)
    page.wait_for_function("() => window.answers === 1", timeout=5_000)
    values = [value for value, _ in shown_after_click(page)]
    assert values == ["5", "1"], values


def test_a_refused_action_rolls_its_prediction_back(slow_counter, problems):
    page = slow_counter
    problems.allow("bad_action|noSuchAction|refused")
    click(page, "#refused")
    expect(page.locator("#count")).to_have_text("1", timeout=1_000)
    expect(page.locator("#refused")).to_have_class(re.compile(r"\bsc-error\b"), timeout=5_000)
    expect(page.locator("#count")).to_have_text("0", timeout=1_000)
    values = [value for value, _ in shown_after_click(page)]
    assert values == ["1", "0"], values


# A prediction that fills placeholders when the event fires and sets a member the view
# leaves out (the counter's `nthPrimeAnswer` is a nil optional at 0, absent from the view).
ADD_FILLED_BUTTON = """() => {
  const region = document.createElement('div');
  region.setAttribute('data-sc-topic', 'counter');
  region.innerHTML = `
    <output id="answer" data-sc-text="nthPrimeAnswer"></output>
    <button id="filled" data-step="count" data-note="soon" data-sc-on-click="increment"
            data-sc-predict='/$attr.data-step += 1; /nthPrimeAnswer = "$attr.data-note"'>filled +</button>`;
  document.body.append(region);
  window.statecastModule.statecast.bind(region);
  const answer = region.querySelector('#answer');
  window.answerShown = [];
  new MutationObserver(() => window.answerShown.push(answer.textContent))
    .observe(answer, { childList: true, characterData: true, subtree: true });
}"""


def test_a_prediction_fills_its_placeholders_and_sets_a_member_the_view_leaves_out(slow_counter):
    page = slow_counter
    page.evaluate(ADD_FILLED_BUTTON)
    expect(page.locator("#filled")).to_be_visible(timeout=5_000)
    click(page, "#filled")
    expect(page.locator("#count")).to_have_text("1", timeout=5_000)
    page.wait_for_function("() => window.answers === 1", timeout=5_000)
    shown = shown_after_click(page)
    assert [value for value, _ in shown] == ["1"], shown
    assert shown[0][1] < 50, f"the prediction took {shown[0][1]} ms"
    # Shown at once, then gone with the reply: the server never sets it.
    assert page.evaluate("window.answerShown") == ["soon", ""]
