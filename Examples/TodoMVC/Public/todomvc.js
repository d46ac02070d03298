/**
 * What TodoMVC asks of the page beyond its bindings: the new-todo field (Enter adds,
 * the field empties), editing in place (double-click, Enter or leaving the field saves,
 * Escape cancels), and telling the server the route the page opened at. Editing is
 * the tab's own business until it is saved, so it never waits for the server.
 */
import { statecast, topicName } from "/statecast.js";

const app = document.querySelector(".todoapp");
const todos = statecast.join(topicName(app.dataset.scTopic, window));

/** @param {object} action */
function send(action) {
  todos.send(action).catch((error) => console.warn("todomvc:", error.code ?? error));
}

send({ routeChanged: { hash: location.hash } });

const newTodo = app.querySelector(".new-todo");
newTodo.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing) return;
  const title = newTodo.value.trim();
  if (!title) return;
  send({ newTodoEntered: { title } });
  newTodo.value = "";
});

const list = app.querySelector(".todo-list");

list.addEventListener("dblclick", (event) => {
  const label = event.target.closest(".view label");
  if (!label) return;
  const item = label.closest("li");
  const edit = item.querySelector(".edit");
  item.classList.add("editing");
  edit.value = label.textContent;
  edit.focus();
  edit.setSelectionRange(edit.value.length, edit.value.length);
});

/** Ends the edit in `item`, saving what was typed unless `save` is false. */
function finishEditing(item, save) {
  if (!item.classList.contains("editing")) return;
  item.classList.remove("editing");
  if (!save) return;
  const id = item.dataset.id;
  const title = item.querySelector(".edit").value.trim();
  send(title ? { todoEdited: { id, title } } : { todoDestroyed: { id } });
}

list.addEventListener("keydown", (event) => {
  if (!event.target.classList.contains("edit")) return;
  const item = event.target.closest("li");
  if (event.key === "Enter" && !event.isComposing) finishEditing(item, true);
  else if (event.key === "Escape") finishEditing(item, false);
});

// Leaving the field saves. Blur does not bubble: listen while it goes down.
list.addEventListener(
  "blur",
  (event) => {
    if (event.target.classList?.contains("edit")) finishEditing(event.target.closest("li"), true);
  },
  true,
);
