"""TodoMVC's application specification (tastejs/todomvc app-spec.md), in Chromium:
markup, keyboard, editing, the counter's wording, "Clear completed", the routes, and
todos that survive a reload (kept by the server) and a restart."""

import re

from playwright.sync_api import expect

from conftest import TodoServer

TITLES = ["buy some cheese", "feed the cat", "book a doctors appointment"]
COMPLETED = re.compile(r"\bcompleted\b")
EDITING = re.compile(r"\bediting\b")
READY = re.compile(r"\bsc-ready\b")


def add(page, *titles):
    field = page.locator(".new-todo")
    for title in titles:
        field.fill(title)
        field.press("Enter")
    expect(page.locator(".todo-list li")).to_have_count(len(titles))


def test_with_no_todos_main_and_footer_are_hidden_and_the_field_has_focus(page):
    expect(page.locator(".main")).to_be_hidden()
    expect(page.locator(".footer")).to_be_hidden()
    expect(page.locator(".new-todo")).to_be_focused()
    expect(page.locator(".new-todo")).to_have_attribute("placeholder", "What needs to be done?")


def test_enter_adds_a_trimmed_todo_at_the_bottom_and_empties_the_field(page):
    add(page, TITLES[0])
    page.locator(".new-todo").fill("   " + TITLES[1] + "  ")
    page.locator(".new-todo").press("Enter")
    expect(page.locator(".todo-list li label")).to_have_text(TITLES[:2])
    expect(page.locator(".new-todo")).to_have_value("")
    expect(page.locator(".main")).to_be_visible()
    expect(page.locator(".footer")).to_be_visible()


def test_an_empty_title_adds_nothing(page):
    page.locator(".new-todo").fill("   ")
    page.locator(".new-todo").press("Enter")
    add(page, TITLES[0])
    expect(page.locator(".todo-list li")).to_have_count(1)


def test_the_counter_says_item_or_items(page):
    add(page, TITLES[0])
    expect(page.locator(".todo-count")).to_have_text("1 item left")
    expect(page.locator(".todo-count strong")).to_have_text("1")
    page.locator(".new-todo").fill(TITLES[1])
    page.locator(".new-todo").press("Enter")
    expect(page.locator(".todo-count")).to_have_text("2 items left")
    page.locator(".todo-list li .toggle").first.check()
    expect(page.locator(".todo-count")).to_have_text("1 item left")


def test_toggling_marks_a_todo_completed(page):
    add(page, *TITLES[:2])
    first = page.locator(".todo-list li").first
    first.locator(".toggle").check()
    expect(first).to_have_class(COMPLETED)
    first.locator(".toggle").uncheck()
    expect(first).not_to_have_class(COMPLETED)


def test_toggle_all_completes_and_reopens_every_todo_and_follows_them(page):
    add(page, *TITLES)
    toggle_all = page.locator("#toggle-all")
    toggle_all.check()
    expect(page.locator(".todo-list li.completed")).to_have_count(3)
    toggle_all.uncheck()
    expect(page.locator(".todo-list li.completed")).to_have_count(0)
    for toggle in page.locator(".todo-list .toggle").all():
        toggle.check()
    expect(toggle_all).to_be_checked()
    page.locator(".todo-list .toggle").first.uncheck()
    expect(toggle_all).not_to_be_checked()


def test_double_click_edits_and_enter_saves_trimmed(page):
    add(page, *TITLES)
    second = page.locator(".todo-list li").nth(1)
    second.locator("label").dblclick()
    expect(second).to_have_class(EDITING)
    expect(second.locator(".edit")).to_be_focused()
    expect(second.locator(".edit")).to_have_value(TITLES[1])
    expect(second.locator(".toggle")).to_be_hidden()
    expect(second.locator("label")).to_be_hidden()
    second.locator(".edit").fill("   buy some sausages  ")
    second.locator(".edit").press("Enter")
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[0], "buy some sausages", TITLES[2]])
    expect(second).not_to_have_class(EDITING)


def test_leaving_the_field_saves_and_escape_cancels(page):
    add(page, *TITLES)
    second = page.locator(".todo-list li").nth(1)
    second.locator("label").dblclick()
    second.locator(".edit").fill("buy some sausages")
    second.locator(".edit").dispatch_event("blur")
    expect(second.locator("label")).to_have_text("buy some sausages")
    second.locator("label").dblclick()
    second.locator(".edit").fill("something else")
    second.locator(".edit").press("Escape")
    expect(second).not_to_have_class(EDITING)
    expect(second.locator("label")).to_have_text("buy some sausages")


def test_an_edit_to_nothing_destroys_the_todo(page):
    add(page, *TITLES)
    second = page.locator(".todo-list li").nth(1)
    second.locator("label").dblclick()
    second.locator(".edit").fill("  ")
    second.locator(".edit").press("Enter")
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[0], TITLES[2]])


def test_destroy_removes_a_todo(page):
    add(page, *TITLES[:2])
    first = page.locator(".todo-list li").first
    first.hover()
    first.locator(".destroy").click()
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[1]])


def test_clear_completed_shows_only_with_completed_todos_and_removes_them(page):
    add(page, *TITLES)
    clear = page.locator(".clear-completed")
    expect(clear).to_be_hidden()
    page.locator(".todo-list li .toggle").nth(1).check()
    expect(clear).to_be_visible()
    expect(clear).to_have_text("Clear completed")
    clear.click()
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[0], TITLES[2]])
    expect(clear).to_be_hidden()


def test_routes_list_all_active_or_completed_todos_and_mark_their_link(page):
    add(page, *TITLES)
    page.locator(".todo-list li .toggle").nth(1).check()
    page.get_by_role("link", name="Active").click()
    expect(page).to_have_url(re.compile(r"#/active$"))
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[0], TITLES[2]])
    expect(page.locator(".filters a.selected")).to_have_text("Active")
    page.get_by_role("link", name="Completed").click()
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[1]])
    expect(page.locator(".filters a.selected")).to_have_text("Completed")
    page.get_by_role("link", name="All").click()
    expect(page.locator(".todo-list li")).to_have_count(3)
    expect(page.locator(".filters a.selected")).to_have_text("All")
    page.get_by_role("link", name="Completed").click()
    page.go_back()
    expect(page.locator(".todo-list li")).to_have_count(3)


def test_opening_a_route_directly_lists_its_todos(page, server):
    add(page, *TITLES)
    page.locator(".todo-list li .toggle").first.check()
    expect(page.locator(".todo-list li.completed")).to_have_count(1)
    page.goto(server.origin + "/#/completed")
    page.reload()
    expect(page.locator(".todo-list li label")).to_have_text([TITLES[0]])
    expect(page.locator(".filters a.selected")).to_have_text("Completed")


def test_todos_survive_a_reload(page):
    add(page, *TITLES[:2])
    page.locator(".todo-list li .toggle").first.check()
    expect(page.locator(".todo-list li.completed")).to_have_count(1)
    page.reload()
    expect(page.locator(".todo-list li label")).to_have_text(TITLES[:2])
    expect(page.locator(".todo-list li").first).to_have_class(COMPLETED)
    expect(page.locator(".todo-count")).to_have_text("1 item left")


def test_the_server_renders_the_list_so_it_shows_without_javascript(page, browser, server):
    add(page, *TITLES[:2])
    page.locator(".todo-list li .toggle").first.check()
    expect(page.locator(".todo-list li.completed")).to_have_count(1)
    # The same browser (its cookies) with scripts off: the page's GET shows its list.
    context = browser.new_context(storage_state=page.context.storage_state(), java_script_enabled=False)
    try:
        plain = context.new_page()
        response = plain.goto(server.origin + "/")
        assert response.headers["cache-control"] == "private, no-store"
        expect(plain.locator(".todoapp")).to_have_class(READY)
        expect(plain.locator(".main")).to_be_visible()
        expect(plain.locator(".todo-list li label")).to_have_text(TITLES[:2])
        expect(plain.locator(".todo-list li").first).to_have_class(COMPLETED)
        expect(plain.locator(".todo-count")).to_have_text("1 item left")
        expect(plain.locator(".clear-completed")).to_be_visible()
    finally:
        context.close()
    # With scripts, a reload resumes the rendered list rather than joining it afresh.
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(payload)))
    page.reload()
    expect(page.locator(".todoapp")).to_have_class(READY)
    expect(page.locator(".todo-list li label")).to_have_text(TITLES[:2])
    page.locator(".new-todo").fill(TITLES[2])
    page.locator(".new-todo").press("Enter")
    expect(page.locator(".todo-list li label")).to_have_text(TITLES)
    assert any('"op":"hello"' in frame and '"todos/' in frame for frame in sent), sent
    assert not any('"op":"join"' in frame and '"todos/' in frame for frame in sent), sent


def test_another_browser_has_its_own_list(page, browser, server):
    add(page, TITLES[0])
    other = browser.new_context().new_page()
    other.goto(server.origin + "/")
    expect(other.locator(".todoapp")).to_have_class(READY)
    expect(other.locator(".todo-list li")).to_have_count(0)
    other.context.close()


def test_todos_survive_a_restart(browser, data_folder):
    first = TodoServer(data_folder)
    context = browser.new_context()
    page = context.new_page()
    page.goto(first.origin + "/")
    add(page, *TITLES[:2])
    storage = context.storage_state()
    assert first.stop() == 0
    second = TodoServer(data_folder, port=first.port)
    try:
        again = browser.new_context(storage_state=storage).new_page()
        again.goto(second.origin + "/")
        expect(again.locator(".todo-list li label")).to_have_text(TITLES[:2])
        again.context.close()
    finally:
        context.close()
        assert second.stop() == 0


def test_the_app_carries_no_copy_of_the_runtime_and_gets_the_servers(page, server):
    from conftest import PACKAGE

    assert sorted(path.name for path in (PACKAGE / "Public").iterdir()) == ["index.html", "todomvc.css", "todomvc.js"]
    response = page.request.get(server.origin + "/statecast.js")
    assert response.ok and response.headers["etag"]
