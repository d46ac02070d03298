/**
 * The page side of uploads: `input[type=file][data-sc-upload]` and `[data-sc-upload-drop]`
 * elements start uploads to their topic (the nearest `data-sc-topic`), and each file
 * gets a progress row in the topic's `[data-sc-upload-list]` (see `uploads.js`).
 * @module
 */

/**
 * @param {any} document
 * @param {any} element
 * @param {string} file's name
 * @returns {{ row: any, update: (state: string, fraction: number, message?: string) => void }}
 */
function progressRow(document, element, file) {
  const row = document.createElement("li");
  row.className = "sc-upload";
  const name = document.createElement("span");
  name.className = "sc-upload-name";
  name.textContent = file;
  const bar = document.createElement("progress");
  bar.max = 100;
  bar.value = 0;
  const percent = document.createElement("span");
  percent.className = "sc-upload-percent";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "sc-upload-cancel";
  cancel.textContent = "Cancel";
  const message = document.createElement("span");
  message.className = "sc-upload-message";
  message.setAttribute("role", "status");
  row.append(name, bar, percent, cancel, message);
  element.append(row);
  return {
    row,
    update(state, fraction, text = "") {
      const value = Math.floor(fraction * 100);
      row.dataset.state = state;
      bar.value = value;
      bar.setAttribute("aria-label", `${file}: ${value} %`);
      percent.textContent = `${value} %`;
      message.textContent = text;
      cancel.hidden = state !== "sending";
    },
  };
}

/**
 * Starts an upload of every file in `files` to the topic of `element`.
 * @param {import("./uploads.js").Uploads} uploads
 * @param {any} document
 * @param {any} element the input or drop zone
 * @param {Iterable<any>} files
 */
function uploadAll(uploads, document, element, files) {
  const host = element.closest("[data-sc-topic]");
  const topic = host?.getAttribute("data-sc-topic");
  if (!topic) {
    console.warn("statecast: data-sc-upload needs to be inside a data-sc-topic element");
    return;
  }
  const list = host.querySelector("[data-sc-upload-list]");
  for (const file of files) {
    const row = list ? progressRow(document, list, file.name) : null;
    row?.update("sending", 0);
    const upload = uploads.upload(topic, file, {
      progress: (acknowledged, size) => row?.update("sending", size === 0 ? 1 : acknowledged / size),
      done: ({ sha256 }) => {
        row?.update("done", 1, "received");
        if (row && sha256) row.row.dataset.sha256 = sha256;
      },
      failed: (message) => row?.update(message === "cancelled" ? "cancelled" : "failed", 0, message),
    });
    row?.row.querySelector(".sc-upload-cancel").addEventListener("click", () => upload.cancel());
  }
}

/**
 * Makes file inputs and drop zones of `document` upload (delegated: elements added
 * later work too).
 * @param {import("./uploads.js").Uploads} uploads
 * @param {any} document
 * @returns {() => void} stops
 */
export function installUploadBindings(uploads, document) {
  /** @param {any} event */
  const chosen = (event) => {
    const input = event.target;
    if (!input?.matches?.("input[type=file][data-sc-upload]")) return;
    uploadAll(uploads, document, input, Array.from(input.files ?? []));
    input.value = "";
  };
  /** @param {any} event */
  const dragging = (event) => {
    const zone = event.target?.closest?.("[data-sc-upload-drop]");
    if (!zone) return;
    event.preventDefault();
    zone.classList.toggle("sc-dragging", event.type === "dragover");
  };
  /** @param {any} event */
  const dropped = (event) => {
    const zone = event.target?.closest?.("[data-sc-upload-drop]");
    if (!zone) return;
    event.preventDefault();
    zone.classList.remove("sc-dragging");
    uploadAll(uploads, document, zone, Array.from(event.dataTransfer?.files ?? []));
  };
  document.addEventListener("change", chosen);
  document.addEventListener("dragover", dragging);
  document.addEventListener("dragleave", dragging);
  document.addEventListener("drop", dropped);
  return () => {
    document.removeEventListener("change", chosen);
    document.removeEventListener("dragover", dragging);
    document.removeEventListener("dragleave", dragging);
    document.removeEventListener("drop", dropped);
  };
}
