"""The sign-up demo: errors once a field is left, the server's "taken" check, focus on
submit, a submit in flight, and typing that no late patch undoes."""

import re

from playwright.sync_api import expect


def test_an_error_appears_only_once_the_field_is_left_and_fixing_clears_it(server, open_page):
    page = open_page(f"{server.origin}/signup.html")
    email, error = page.locator("#email"), page.locator("#email-error")
    email.fill("ada@")
    # Typing a first value shows nothing, though the server already finds it invalid.
    expect(error).to_have_text("Enter a valid email address")
    expect(error).to_be_hidden()
    expect(email).to_have_attribute("aria-invalid", "false")
    email.press("Tab")
    expect(error).to_be_visible()
    expect(email).to_have_attribute("aria-invalid", "true")
    expect(email).to_have_attribute("aria-describedby", re.compile(r"\bemail-error\b"))
    # The other fields were never left: still quiet.
    expect(page.locator("#name-error")).to_be_hidden()
    email.fill("ada@example.org")
    expect(error).to_be_hidden()
    expect(email).to_have_attribute("aria-invalid", "false")


def test_a_taken_name_is_reported_by_the_server_after_a_pause(server, open_page):
    page = open_page(f"{server.origin}/signup.html")
    name, error = page.locator("#name"), page.locator("#name-error")
    name.fill("Ada")
    name.press("Tab")
    expect(error).to_have_text("Ada is taken; try another name")
    expect(error).to_be_visible()
    expect(name).to_have_attribute("aria-invalid", "true")
    name.fill("Ada Lovelace")
    expect(error).to_be_hidden()
    expect(page.locator("text=Checking this name")).to_be_hidden()
    expect(error).to_be_hidden()


def test_submitting_shows_every_error_and_focuses_the_first_invalid_field(server, open_page):
    page = open_page(f"{server.origin}/signup.html")
    page.click("#submit")
    for field in ("name", "email", "password"):
        expect(page.locator(f"#{field}-error")).to_be_visible()
        expect(page.locator(f"#{field}")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#name")).to_be_focused()
    expect(page.locator("#submit")).to_be_enabled()
    page.fill("#name", "Grace")
    expect(page.locator("#name-error")).to_be_hidden()
    page.click("#submit")
    expect(page.locator("#email")).to_be_focused()


def test_a_submit_in_flight_disables_its_button_and_a_valid_form_signs_up(server, open_page):
    page = open_page(f"{server.origin}/signup.html")
    page.fill("#name", "Grace Hopper")
    page.fill("#email", "grace@example.org")
    page.fill("#password", "Cobol-1959-compiler")
    expect(page.locator("#strength-label")).to_have_text("strong")
    expect(page.locator("#strength")).to_have_attribute("value", "4")
    expect(page.locator("text=Checking this name")).to_be_hidden()
    busy = page.evaluate(
        """() => {
          const button = document.querySelector('#submit');
          document.querySelector('#signup').requestSubmit();
          return [button.disabled, button.getAttribute('aria-busy')];
        }"""
    )
    assert busy == [True, "true"]
    expect(page.locator("#welcome")).to_be_visible()
    expect(page.locator("#welcome-name")).to_have_text("Grace Hopper")


def test_fast_typing_never_loses_a_character_to_a_late_patch(server, open_page):
    page = open_page(f"{server.origin}/signup.html")
    typed = "grace.brewster.murray.hopper@navy.example.mil"
    page.locator("#email").press_sequentially(typed)
    expect(page.locator("#email")).to_have_value(typed)
    page.locator("#email").press("Tab")
    # Once every patch is in, the server holds exactly what was typed, and so does the field.
    expect(page.locator("#email-error")).to_be_hidden()
    expect(page.locator("#email")).to_have_value(typed)
